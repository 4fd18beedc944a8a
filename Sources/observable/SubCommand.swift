import ArgumentParser
import IndefiniteObservable
import Locking
import ObservableClient
import ObservableWire

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// `observable sub NAME_OR_PATTERN...`: prints every value until interrupted or `--count`.
struct SubCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "sub",
    abstract: "Print the values of streams, one NAME VALUE line each.",
    usage: "observable sub <names> ... [--since <pos>] [--count <count>] [<options>]",
    discussion: """
      Reconnects and subscribes again when the connection drops, with one notice on stderr \
      each time. When the server keeps history (--history N), each subscription resumes \
      after the last value it printed, so no value is lost or printed twice; a notice on \
      stderr says when the history no longer reached back and values were lost. Without \
      history, a retained value arrives again after a reconnect.
      """)

  @OptionGroup var connection: ConnectionOptions

  @Argument(help: "Stream names or patterns (room.1, room.*, room.>).")
  var names: [String]

  @Flag(help: "Print each delivery line as received.")
  var json = false

  @Option(help: "Exit 0 after this many values.")
  var count: Int?

  @Flag(help: "Print each value's position first: POS NAME VALUE (- without server history).")
  var pos = false

  @Option(
    help: ArgumentHelp(
      "Start with the values after this position (from --pos) that the server's history holds.",
      valueName: "pos"))
  var since: String?

  mutating func validate() throws {
    guard !names.isEmpty else { throw ValidationError("name at least one stream") }
    if let count, count < 1 { throw ValidationError("--count must be at least 1") }
    if let since, StreamPosition(parsing: since) == nil {
      throw ValidationError("--since must be a position the server printed, such as 5f3a09c2-1042")
    }
  }

  func run() async throws {
    let client = try await connection.connect()
    defer { client.close() }
    let (finished, finish) = AsyncStream<Void>.makeStream()
    let printed = Locked(0)
    let limit = count
    let json = self.json
    let positions = pos
    let notices = reconnectNotices(client)
    defer { notices.unsubscribe() }
    let gapNotices = client.gaps.subscribe { Terminal.error(Self.notice(for: $0)) }
    defer { gapNotices.unsubscribe() }
    var subscriptions: [Subscription] = []
    for name in names {
      subscriptions.append(
        client.stream(name, since: since).subscribe { delivery in
          // Deliveries come one at a time from the client's thread; the count keeps to the limit.
          let shown = printed.withLock { printed -> Bool in
            if let limit, printed >= limit { return false }
            printed += 1
            return true
          }
          guard shown else { return }
          Terminal.print(DeliveryText.line(delivery, json: json, positions: positions))
          if let limit, printed.withLock({ $0 }) >= limit { finish.finish() }
        })
    }
    for await _ in finished {}
    for subscription in subscriptions { subscription.unsubscribe() }
  }

  /// The stderr line for a subscription that resumed with values lost.
  static func notice(for gap: ResumeGap) -> String {
    let why =
      switch gap.cause {
      case .historyEvicted: "the server's history no longer reaches back that far"
      case .noHistory: "the server keeps no history"
      }
    return "observable: \(gap.subscription) resumed after \(gap.since) with values lost (\(why))"
  }

  /// Prints one notice on stderr each time the connection drops.
  private func reconnectNotices(_ client: ObservableClient) -> Subscription {
    let wasConnected = Locked(false)
    let address = client.address
    return client.connectionState.subscribe { state in
      switch state {
      case .connected:
        wasConnected.withLock { $0 = true }
      case .disconnected(let reason, _):
        // Only the first failure after a connection speaks; further attempts stay quiet.
        let wasUp = wasConnected.withLock { connected in
          defer { connected = false }
          return connected
        }
        if wasUp {
          Terminal.error("observable: connection to \(address) lost (\(reason)); reconnecting")
        }
      default:
        break
      }
    }
  }
}
