import Foundation
import Glibc
import TestSupport
import Testing

@testable import ObservableCounters
@testable import ObservablePOSIX
@testable import ObservableServer

/// Sends through io_uring: a broadcast goes out in a few batches, and what reaches clients is
/// exactly what one `send` per connection delivers, full sockets and vanished peers included.
@Suite("Sends batched through io_uring", .timeLimit(.minutes(2)))
struct SendBatchingTests {
  /// Whether this kernel lets the process set up a ring (a seccomp profile may forbid it).
  static let ringAvailable =
    (try? SendRing(entries: 8, counters: ServerCounters())) != nil

  static let subscriberCount = 300
  static let broadcasts = 5

  /// Subscribes `count` clients to `topic` and publishes `broadcasts` values through another;
  /// checks each subscriber got every value once, in order, and returns the server's stats.
  private static func broadcast(
    on server: TestServer, to count: Int, topic: String = "wide"
  ) throws -> [String: Any] {
    let subscribers = try (0..<count).map { _ in try server.connect() }
    for subscriber in subscribers { try subscriber.request("subscribe \(topic)") }
    let publisher = try server.connect()
    for value in 0..<Self.broadcasts {
      let reply = try publisher.request("publish \(topic) \(value)")
      #expect(reply["receivers"] as? Int == count)
      // Each value is read everywhere before the next is published, so no two share a send.
      for (index, subscriber) in subscribers.enumerated() {
        let delivery = try subscriber.readJSON()
        #expect(delivery["value"] as? Int == value, "subscriber \(index)")
      }
    }
    return try server.stats()
  }

  @Test(.enabled(if: RequiredTool.runs(ringAvailable)))
  func aBroadcastToManyConnectionsGoesOutInAFewSubmissions() throws {
    try RequiredTool.require(Self.ringAvailable, "io_uring")
    let server = try TestServer { $0.sendBatching = .auto }
    let stats = try Self.broadcast(on: server, to: Self.subscriberCount)
    let batches = stats["send_batches_total"] as? Int ?? 0
    let sends = stats["batched_sends_total"] as? Int ?? 0
    // Every delivery went through the ring.
    #expect(sends >= Self.subscriberCount * Self.broadcasts)
    // Two loops, a few rounds per broadcast at most: far fewer submissions than sends.
    #expect(batches >= Self.broadcasts)
    #expect(batches * 20 <= sends, "\(batches) submissions for \(sends) sends")
  }

  @Test func withBatchingOffEverySendIsItsOwnSystemCall() throws {
    let server = try TestServer { $0.sendBatching = .off }
    let stats = try Self.broadcast(on: server, to: 50)
    #expect(stats["send_batches_total"] as? Int == 0)
    #expect(stats["batched_sends_total"] as? Int == 0)
    #expect(stats["delivered_total"] as? Int == 50 * Self.broadcasts)
  }

  @Test(arguments: ringAvailable ? [SendBatching.auto, .off] : [.off])
  func aFullSocketKeepsTheRestAndGetsItAllOnceItReads(batching: SendBatching) throws {
    let server = try TestServer { $0.sendBatching = batching }
    // A small receive buffer fills after a few values, so batched sends come back partial and
    // then EAGAIN while the other subscribers keep the batches going.
    let stalled = try server.connect()
    var small: Int32 = 4096
    setsockopt(stalled.fd, SOL_SOCKET, SO_RCVBUF, &small, socklen_t(MemoryLayout<Int32>.size))
    try stalled.request("subscribe full")
    let readers = try (0..<4).map { _ in try server.connect() }
    for reader in readers { try reader.request("subscribe full") }
    let publisher = try server.connect()
    let padding = String(repeating: "x", count: 3000)
    let values = 150
    for value in 0..<values {
      try publisher.request(#"{"op":"publish","stream":"full","value":"\#(value) \#(padding)"}"#)
      for reader in readers { #expect(try reader.readJSON()["value"] != nil) }
    }
    ReceiveBuffer.growForDraining(stalled.fd)
    for value in 0..<values {
      let delivery = try stalled.readJSON()
      #expect(delivery["value"] as? String == "\(value) \(padding)")
    }
    let stats = try server.stats()
    #expect(stats["slow_consumers_total"] as? Int == 0)
    #expect((stats["batched_sends_total"] as? Int ?? 0 > 0) == (batching == .auto))
  }

  @Test(.enabled(if: RequiredTool.runs(ringAvailable)))
  func aPeerThatVanishesMidBroadcastIsClosedAndItsSubscriptionEnds() throws {
    try RequiredTool.require(Self.ringAvailable, "io_uring")
    let server = try TestServer { $0.sendBatching = .auto }
    let subscribers = try (0..<100).map { _ in try server.connect() }
    for subscriber in subscribers { try subscriber.request("subscribe gone") }
    let publisher = try server.connect()
    // Half reset their connections; the broadcasts that follow meet ECONNRESET or EPIPE.
    for subscriber in subscribers.enumerated().filter({ $0.offset.isMultiple(of: 2) }) {
      subscriber.element.reset()
    }
    for value in 0..<20 { try publisher.request("publish gone \(value)") }
    #expect(eventually { server.server.connectionCount == 51 })
    #expect(eventually { server.server.counters.snapshot.subscriptions == 50 })
    for subscriber in subscribers.enumerated().filter({ !$0.offset.isMultiple(of: 2) }) {
      let last = try subscriber.element.read(until: { $0["value"] as? Int == 19 })
      #expect(last["stream"] as? String == "gone")
    }
  }
}
