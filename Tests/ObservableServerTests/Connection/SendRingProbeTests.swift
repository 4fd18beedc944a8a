import CLinux
import Glibc
import Locking
import Logging
import TestSupport
import Testing

@testable import ObservableCounters
@testable import ObservablePOSIX
@testable import ObservableServer

/// The server asks the kernel for the io_uring operations it uses before it batches a send:
/// where one is missing (5.1 to 5.5 have io_uring but no `IORING_OP_SEND`) it says so at start
/// and sends through epoll. This kernel has the operation, so the tests name one past the last
/// any kernel knows.
@Suite("Send ring probe", .timeLimit(.minutes(1)))
struct SendRingProbeTests {
  static let ringAvailable = (try? SendRing(entries: 8, counters: ServerCounters())) != nil

  /// An operation number no kernel knows.
  static let unknownOperation: UInt8 = 255

  @Test(.enabled(if: ringAvailable))
  func theProbeNamesTheFirstOperationTheKernelLacks() throws {
    let ring = try #require(observable_send_ring_open(8))
    defer { observable_send_ring_close(ring) }
    let send = observable_send_ring_send_operation()
    let known: [UInt8] = [send]
    #expect(observable_send_ring_first_unsupported(ring, known, 1) == 1)
    let withUnknown: [UInt8] = [send, Self.unknownOperation, send]
    #expect(observable_send_ring_first_unsupported(ring, withUnknown, 3) == 1)
  }

  @Test(.enabled(if: ringAvailable))
  func aMissingOperationMeansNoRingAndTheLogSaysWhich() {
    let log = CapturedLog()
    let ring = SendBatching.openRing(
      counters: ServerCounters(),
      requiring: [observable_send_ring_send_operation(), Self.unknownOperation],
      logger: log.logger, logsSuccess: true)
    #expect(ring == nil)
    #expect(
      log.lines == [
        "io_uring unavailable; one send per connection through epoll"
          + " reason=the kernel's io_uring lacks operation 255"
      ])
  }

  @Test(.enabled(if: ringAvailable))
  func theServerSaysAtStartThatItBatchesThroughIOUring() throws {
    let log = CapturedLog()
    let server = try Self.start(log) { $0.sendBatching = .auto }
    defer { server.shutdown() }
    #expect(log.lines.contains("sends batched through io_uring"))
  }

  @Test func theServerSaysAtStartThatIOUringIsOff() throws {
    let log = CapturedLog()
    let server = try Self.start(log) { $0.sendBatching = .off }
    defer { server.shutdown() }
    #expect(log.lines.contains("io_uring off; one send per connection through epoll"))
  }

  @Test(.enabled(if: ringAvailable))
  func withAnOperationMissingTheServerSendsThroughEpollAndSaysWhy() throws {
    let log = CapturedLog()
    let server = try Self.start(log) {
      $0.sendBatching = .auto
      $0.sendRingOperations = [observable_send_ring_send_operation(), Self.unknownOperation]
    }
    defer { server.shutdown() }
    #expect(
      log.lines.contains {
        $0.hasPrefix("io_uring unavailable; one send per connection through epoll")
          && $0.hasSuffix("reason=the kernel's io_uring lacks operation 255")
      }, "\(log.lines)")
    #expect(!log.lines.contains("sends batched through io_uring"))
    // A broadcast reaches every subscriber, with no send through a ring.
    let port = try #require(server.tcpPort)
    let subscribers = try (0..<20).map { _ in try LineClient(port: port) }
    for subscriber in subscribers { try subscriber.request("subscribe probe") }
    let publisher = try LineClient(port: port)
    #expect(try publisher.request("publish probe 7")["receivers"] as? Int == 20)
    for subscriber in subscribers { #expect(try subscriber.readJSON()["value"] as? Int == 7) }
    let stats = try server.stats()
    #expect(stats["batched_sends_total"] as? Int == 0)
    #expect(stats["send_batches_total"] as? Int == 0)
  }

  /// Starts a server on a free loopback port that logs into `log`.
  private static func start(
    _ log: CapturedLog, _ configure: (inout ServerConfiguration) -> Void
  ) throws -> StartedServer {
    var configuration = ServerConfiguration()
    configuration.listen = [.tcp(host: "127.0.0.1", port: 0)]
    configuration.eventLoopCount = 2
    configure(&configuration)
    let server = ObservableServer(configuration: configuration, logger: log.logger)
    let addresses = try server.start()
    return StartedServer(server: server, addresses: addresses)
  }
}

/// A started server and the addresses it serves.
private struct StartedServer {
  let server: ObservableServer
  let addresses: [ListenAddress]

  var tcpPort: UInt16? {
    addresses.lazy.compactMap { address -> UInt16? in
      if case .tcp(_, let port) = address { return port }
      return nil
    }.first
  }

  /// The `stats` value now, read through a fresh connection.
  func stats() throws -> [String: Any] {
    let client = try LineClient(port: tcpPort ?? 0)
    defer { client.close() }
    try client.send(#"{"op":"subscribe","stream":"stats"}"#)
    let delivery = try client.read(until: {
      $0["stream"] as? String == "stats" && $0["value"] != nil
    })
    return delivery["value"] as? [String: Any] ?? [:]
  }

  func shutdown() { server.shutdown() }
}

/// Notices and louder, each as "message key=value ...", from any thread.
private final class CapturedLog: Sendable {
  private let captured = Locked<[String]>([])

  var lines: [String] { captured.withLock { $0 } }

  var logger: Logger { Logger(label: "test") { _ in Handler(log: self) } }

  fileprivate func append(_ line: String) { captured.withLock { $0.append(line) } }

  private struct Handler: LogHandler {
    let log: CapturedLog
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .notice

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
      get { metadata[key] }
      set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
      let fields = (event.metadata ?? [:]).sorted { $0.key < $1.key }.map {
        "\($0.key)=\($0.value)"
      }
      log.append(([event.message.description] + fields).joined(separator: " "))
    }
  }
}
