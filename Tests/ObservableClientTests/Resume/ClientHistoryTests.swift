import Foundation
import TestSupport
import Testing

@testable import ObservableClient

/// Positions, `since`, `history` and the gap signal through the client, against an in-process
/// server.
@Suite("Client history, positions and since", .timeLimit(.minutes(1)))
struct ClientHistoryTests {
  /// Publishes `values` to `stream` one after another.
  static func publish(_ client: ObservableClient, _ stream: String, _ values: ClosedRange<Int>)
    async throws
  {
    for value in values { try await client.publish(stream, value) }
  }

  @Test("history reads the last values with positions; since resumes after one of them")
  func historyAndSince() async throws {
    let server = try LocalServer { $0.historyPerTopic = 10 }
    let client = try await server.client()
    defer { client.close() }
    try await Self.publish(client, "h", 1...5)
    let last = try await client.history("h", limit: 3)
    #expect(last.map(\.valueText) == ["3", "4", "5"])
    #expect(last.allSatisfy { $0.stream == "h" && $0.subscription == "h" && $0.position != nil })
    #expect(try await client.history("h").count == 5)

    let gaps = Received<ResumeGap>()
    let watch = client.gaps.subscribe { gaps.append($0) }
    let received = Received<Delivery>()
    let subscription = client.stream("h", since: last[0].position).subscribe {
      received.append($0)
    }
    defer { for each in [watch, subscription] { each.unsubscribe() } }
    #expect(await eventually { received.count == 2 })
    try await client.publish("h", 6)
    #expect(await eventually { received.count == 3 })
    #expect(received.all.map(\.valueText) == ["4", "5", "6"])
    #expect(Array(received.all.prefix(2).map(\.position)) == last.dropFirst().map(\.position))
    #expect(gaps.all.isEmpty)
  }

  @Test("reading the history of a name the client subscribes to gives its observers nothing twice")
  func historyBesideSubscription() async throws {
    let server = try LocalServer { $0.historyPerTopic = 100 }
    let client = try await server.client()
    defer { client.close() }
    let received = Received<Delivery>()
    let subscription = client.stream("both").subscribe { received.append($0) }
    defer { subscription.unsubscribe() }
    try await client.ping()
    try await Self.publish(client, "both", 1...20)
    let read = try await client.history("both")
    try await client.publish("both", 21)
    #expect(await eventually { received.count == 21 })
    #expect(received.all.map(\.valueText) == (1...21).map(String.init))
    #expect(read.map(\.valueText) == (1...20).map(String.init))
  }

  @Test("since evicted from history: the gap is reported before what history still holds")
  func evictedSince() async throws {
    let server = try LocalServer { $0.historyPerTopic = 2 }
    let client = try await server.client()
    defer { client.close() }
    try await Self.publish(client, "short", 1...5)
    // The position of 4, read before 6 and 7 push it out of the history.
    let oldest = try await client.history("short")
    try await Self.publish(client, "short", 6...7)
    let events = Received<String>()
    let watch = client.gaps.subscribe { events.append("gap \($0.subscription) \($0.cause)") }
    let subscription = client.stream("short", since: oldest[0].position).subscribe {
      events.append($0.valueText)
    }
    defer { for each in [watch, subscription] { each.unsubscribe() } }
    #expect(await eventually { events.count == 3 })
    #expect(events.all == ["gap short historyEvicted", "6", "7"])
  }

  @Test("without server history: no positions, lines as before, and since reports a gap")
  func withoutHistory() async throws {
    let server = try LocalServer()
    let client = try await server.client()
    defer { client.close() }
    let gaps = Received<ResumeGap>()
    let watch = client.gaps.subscribe { gaps.append($0) }
    let plain = Received<Delivery>()
    let resumed = Received<Delivery>()
    let one = client.stream("plain").subscribe { plain.append($0) }
    let two = client.stream("other", since: "00000001-5").subscribe { resumed.append($0) }
    defer { for each in [watch, one, two] { each.unsubscribe() } }
    try await client.ping()
    try await client.publish("plain", 1)
    try await client.publish("other", 2)
    #expect(await eventually { plain.count == 1 && resumed.count == 1 })
    #expect(plain.all[0].position == nil)
    #expect(String(decoding: plain.all[0].line, as: UTF8.self) == #"{"stream":"plain","value":1}"#)
    #expect(gaps.all == [ResumeGap(subscription: "other", since: "00000001-5", cause: .noHistory)])
    await #expect(throws: ClientError.self) { try await client.history("plain") }
  }
}
