import Testing

@testable import ObservableCounters
@testable import ObservableServer
@testable import ObservableStreams
@testable import ObservableWire

/// A publisher's remembered topic: used while it is in use, never after it was dropped.
@Suite(.timeLimit(.minutes(1)))
struct LastTopicTests {
  let counters = ServerCounters()
  let registry: StreamRegistry

  init() {
    registry = StreamRegistry(sources: [], counters: counters)
  }

  private func publish(_ value: String, to name: String, _ lastTopic: inout Topic?) throws -> Int {
    var last = lastTopic
    defer { lastTopic = last }
    return try Array(value.utf8).withUnsafeBytes { raw in
      Result { () throws(ProtocolError) in
        try registry.publish(raw, to: name, retain: false, lastTopic: &last)
      }
    }.get()
  }

  @Test func aDroppedAndRemadeTopicIsFoundAgain() throws {
    var lastTopic: Topic?
    let first = LineCollector()
    let firstSubscription = try registry.subscribe(first, to: "t")
    #expect(try publish("1", to: "t", &lastTopic) == 1)
    let remembered = try #require(lastTopic)
    firstSubscription.unsubscribe()  // Drops the topic: nothing keeps it.
    let second = LineCollector()
    let secondSubscription = try registry.subscribe(second, to: "t")
    #expect(try publish("2", to: "t", &lastTopic) == 1)
    #expect(second.texts == [LineCollector.delivery("t", "2")])
    #expect(first.texts == [LineCollector.delivery("t", "1")])
    #expect(lastTopic !== remembered)
    secondSubscription.unsubscribe()
  }

  @Test func anotherNameIsNotSentToTheRememberedTopic() throws {
    var lastTopic: Topic?
    let a = LineCollector()
    let b = LineCollector()
    let subscriptions = [try registry.subscribe(a, to: "a"), try registry.subscribe(b, to: "b")]
    #expect(try publish("1", to: "a", &lastTopic) == 1)
    #expect(try publish("2", to: "b", &lastTopic) == 1)
    #expect(a.texts == [LineCollector.delivery("a", "1")])
    #expect(b.texts == [LineCollector.delivery("b", "2")])
    #expect(throws: ProtocolError.self) { try publish("3", to: "bad name", &lastTopic) }
    for subscription in subscriptions { subscription.unsubscribe() }
  }

  @Test func aBatchForADroppedTopicReachesTheRemadeOneAndCountsEveryLine() throws {
    var lastTopic: Topic?
    let first = LineCollector()
    let firstSubscription = try registry.subscribe(first, to: "t")
    #expect(try publish("0", to: "t", &lastTopic) == 1)
    firstSubscription.unsubscribe()  // Drops the topic the publisher remembers.
    let second = LineCollector()
    let third = LineCollector()
    let subscriptions = [
      try registry.subscribe(second, to: "t"), try registry.subscribe(third, to: "t"),
    ]
    let lines = Array((LineCollector.delivery("t", "1") + LineCollector.delivery("t", "2")).utf8)
    let receivers = registry.deliver(lines, count: 2, to: "t", retain: false, lastTopic: &lastTopic)
    #expect(receivers == 2)
    #expect(second.lines == [lines])
    #expect(third.lines == [lines])
    #expect(counters.snapshot.publishedTotal == 3)
    #expect(counters.snapshot.deliveredTotal == 1 + 2 * 2)
    for subscription in subscriptions { subscription.unsubscribe() }
  }
}
