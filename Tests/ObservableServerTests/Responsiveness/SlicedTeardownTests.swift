import Glibc
import TestSupport
import Testing

@testable import ObservableServer
@testable import ObservableStreams

/// A connection's subscriptions end a slice per loop turn once it closes: the loop's other
/// clients are served in between, and every disconnect still runs exactly once, shutdown or
/// not. On main, closing a connection with a million subscriptions held the loop for 1.86 s.
@Suite("Mass unsubscribe in slices", .serialized, .timeLimit(.minutes(3)))
struct SlicedTeardownTests {
  /// Direct subscriptions per test: enough that ending them all at once holds a debug build's
  /// loop for seconds, few enough to make in a few.
  static let topicCount = 150_000
  /// Pattern subscriptions, which count against the limit too and end the same way.
  static let patternCount = 1_000

  /// A one-loop server, so the closing connection and the bystander share the loop.
  static func server() throws -> TestServer {
    try TestServer {
      $0.eventLoopCount = 1
      $0.maxSubscriptions = topicCount + patternCount + 10
    }
  }

  /// Subscribes `client` to `topicCount` topics and `patternCount` patterns, pipelined. The
  /// replies are counted, not parsed: nothing else arrives, and parsing 200,000 lines would take
  /// the test longer than the server takes to make the subscriptions.
  static func subscribeMany(_ client: LineClient) throws {
    let lines =
      (0..<topicCount).map { "subscribe t.\($0)\n" }
      + (0..<patternCount).map { "subscribe p.\($0).*\n" }
    for start in stride(from: 0, to: lines.count, by: 10_000) {
      let batch = lines[start..<min(start + 10_000, lines.count)]
      try client.sendRaw(Array(batch.joined().utf8))
      try client.skipLines(batch.count, timeout: .seconds(30))
    }
  }

  @Test func closingAConnectionWithManySubscriptionsLeavesABystanderAnswered() throws {
    let server = try Self.server()
    let subscriber = try server.connect()
    try Self.subscribeMany(subscriber)
    let bystander = try server.connect()
    let counters = server.server.counters
    #expect(counters.snapshot.subscriptions == Self.topicCount + Self.patternCount)
    subscriber.close()
    let longest = BystanderProbe.longestPing(
      through: bystander, until: { counters.snapshot.subscriptions == 0 })
    // Main held the loop for all 151,000 disconnects at once (1.4 s for 101,000 in a loaded
    // debug build); a slice is a few milliseconds.
    #expect(longest < .milliseconds(300), "the bystander waited \(longest)")
    let after = counters.snapshot
    #expect(after.subscriptions == 0)
    #expect(after.disconnectsTotal == after.subscribesTotal)
    // Each topic, made by its subscription, is dropped with it; the patterns are gone.
    let listed = try bystander.request(#"{"op":"list"}"#)
    let names = (listed["streams"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
    #expect(names == ["clock", "stats"])
    #expect(server.server.registry.patternCount == 0)
  }

  @Test func everyDisconnectRunsOnceWhenTheServerStopsMidway() throws {
    let server = try Self.server()
    let subscriber = try server.connect()
    try Self.subscribeMany(subscriber)
    let counters = server.server.counters
    subscriber.close()
    // The close is seen and the first slice ran: the rest waits for later turns.
    #expect(eventually { counters.snapshot.disconnectsTotal > 0 })
    let midway = counters.snapshot.subscriptions
    server.stop()
    let after = counters.snapshot
    #expect(after.subscriptions == 0, "\(midway) were waiting when the stop began")
    #expect(after.disconnectsTotal == after.subscribesTotal)
    // Only the fixed streams are left: each topic went with its last subscription.
    #expect(server.server.registry.list().count == 2)
  }

  @Test func aHalfClosedClientStillGetsItsRepliesAndEndsEverySubscription() throws {
    let server = try Self.server()
    let subscriber = try server.connect()
    try Self.subscribeMany(subscriber)
    let counters = server.server.counters
    // The client pings and closes its side: the reply still comes, then the close, and the
    // subscriptions end in slices meanwhile.
    try subscriber.send(#"{"op":"ping","id":1}"#)
    shutdown(subscriber.fd, Int32(SHUT_WR))
    let reply = try subscriber.readReply(timeout: .seconds(30))
    #expect(reply["op"] as? String == "ping")
    #expect(subscriber.waitForClose(timeout: .seconds(30)))
    #expect(eventually(timeout: .seconds(30)) { counters.snapshot.subscriptions == 0 })
    #expect(counters.snapshot.disconnectsTotal == counters.snapshot.subscribesTotal)
  }
}
