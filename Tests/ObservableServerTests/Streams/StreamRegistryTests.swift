import IndefiniteObservable
import Testing

@testable import ObservableCounters
@testable import ObservableServer
@testable import ObservableStreams
@testable import ObservableWire

/// Topics, patterns and retained values in the registry, with the counters they move.
@Suite(.timeLimit(.minutes(1)))
struct StreamRegistryTests {
  let counters = ServerCounters()
  let registry: StreamRegistry

  init() {
    registry = StreamRegistry(sources: [], counters: counters)
  }

  @Test("a subscriber receives what is published to its name, and nothing else")
  func subscribeThenPublish() throws {
    let collector = LineCollector()
    let subscription = try registry.subscribe(collector, to: "room.1")
    #expect(try registry.publish("42", to: "room.1") == 1)
    #expect(try registry.publish(#"{"x":"y"}"#, to: "room.1") == 1)
    #expect(try registry.publish("7", to: "room.2") == 0)
    #expect(try registry.publish("7", to: "room.1.x") == 0)
    #expect(
      collector.texts == [
        LineCollector.delivery("room.1", "42"), LineCollector.delivery("room.1", #"{"x":"y"}"#),
      ])
    subscription.unsubscribe()
  }

  @Test("publish returns how many observers it reached, and the counters add them up")
  func receivers() throws {
    let collectors = (0..<3).map { _ in LineCollector() }
    let subscriptions = try collectors.map { try registry.subscribe($0, to: "t") }
    #expect(try registry.publish("1", to: "t") == 3)
    subscriptions[0].unsubscribe()
    #expect(try registry.publish("2", to: "t") == 2)
    let wildcard = LineCollector()
    let patternSubscription = try registry.subscribe(wildcard, to: "*")
    #expect(try registry.publish("3", to: "t") == 3)
    #expect(collectors.map { $0.lines.count } == [1, 3, 3])
    #expect(wildcard.lines.count == 1)
    let snapshot = counters.snapshot
    #expect(snapshot.publishedTotal == 3)
    #expect(snapshot.deliveredTotal == 3 + 2 + 3)
    for subscription in subscriptions + [patternSubscription] { subscription.unsubscribe() }
  }

  @Test("unsubscribe runs the disconnect once and stops delivery")
  func unsubscribeOnce() throws {
    let collector = LineCollector()
    let subscription = try registry.subscribe(collector, to: "a")
    var snapshot = counters.snapshot
    #expect(snapshot.subscribesTotal == 1)
    #expect(snapshot.subscriptions == 1)
    #expect(snapshot.disconnectsTotal == 0)

    subscription.unsubscribe()
    snapshot = counters.snapshot
    #expect(snapshot.subscribesTotal == 1)
    #expect(snapshot.subscriptions == 0)
    #expect(snapshot.disconnectsTotal == 1)
    #expect(try registry.publish("1", to: "a") == 0)
    #expect(collector.lines.isEmpty)
  }

  @Test("unsubscribing twice disconnects once")
  func unsubscribeTwice() throws {
    let direct = try registry.subscribe(LineCollector(), to: "a")
    let pattern = try registry.subscribe(LineCollector(), to: "a.>")
    direct.unsubscribe()
    direct.unsubscribe()
    pattern.unsubscribe()
    pattern.unsubscribe()
    let snapshot = counters.snapshot
    #expect(snapshot.subscribesTotal == 2)
    #expect(snapshot.disconnectsTotal == 2)
    #expect(snapshot.subscriptions == 0)
  }

  @Test("a pattern subscriber receives values under their concrete names")
  func patternReceivesConcreteNames() throws {
    let oneToken = LineCollector()
    let tail = LineCollector()
    let subscriptions = [
      try registry.subscribe(oneToken, to: "a.*"), try registry.subscribe(tail, to: "a.>"),
    ]
    // No topic yet: only the patterns can receive these.
    #expect(try registry.publish("1", to: "a.b") == 2)
    #expect(try registry.publish("2", to: "a.b.c") == 1)
    #expect(try registry.publish("3", to: "b.a") == 0)
    #expect(try registry.publish("4", to: "a") == 0)
    // With a direct subscriber the topic exists and the patterns are attached to it.
    let direct = LineCollector()
    let directSubscription = try registry.subscribe(direct, to: "a.c")
    #expect(try registry.publish("5", to: "a.c") == 3)
    #expect(
      oneToken.texts == [
        LineCollector.delivery("a.b", "1", sub: "a.*"),
        LineCollector.delivery("a.c", "5", sub: "a.*"),
      ])
    #expect(
      tail.texts == [
        LineCollector.delivery("a.b", "1", sub: "a.>"),
        LineCollector.delivery("a.b.c", "2", sub: "a.>"),
        LineCollector.delivery("a.c", "5", sub: "a.>"),
      ])
    #expect(direct.texts == [LineCollector.delivery("a.c", "5")])
    for subscription in subscriptions + [directSubscription] { subscription.unsubscribe() }
  }

  @Test("a pattern subscribed after its topic exists is attached to it")
  func patternAfterTopic() throws {
    let direct = try registry.subscribe(LineCollector(), to: "x.y")
    let pattern = LineCollector()
    let patternSubscription = try registry.subscribe(pattern, to: "x.*")
    #expect(try registry.publish("1", to: "x.y") == 2)
    #expect(pattern.texts == [LineCollector.delivery("x.y", "1", sub: "x.*")])
    patternSubscription.unsubscribe()
    #expect(try registry.publish("2", to: "x.y") == 1)
    #expect(try registry.publish("3", to: "x.z") == 0)
    #expect(pattern.lines.count == 1)
    direct.unsubscribe()
  }

  @Test("a late subscriber gets the retained value first, then new ones")
  func retainedFirst() throws {
    #expect(try registry.publish("1", to: "news", retain: true) == 0)
    let late = LineCollector()
    let subscription = try registry.subscribe(late, to: "news")
    #expect(late.texts == [LineCollector.delivery("news", "1")])
    #expect(try registry.publish("2", to: "news") == 1)
    #expect(
      late.texts == [LineCollector.delivery("news", "1"), LineCollector.delivery("news", "2")])
    subscription.unsubscribe()
  }

  @Test("only the latest retained value is kept; a plain publish does not replace it")
  func retainedReplaced() throws {
    try registry.publish("1", to: "r", retain: true)
    try registry.publish("2", to: "r", retain: true)
    try registry.publish("3", to: "r")
    let late = LineCollector()
    let subscription = try registry.subscribe(late, to: "r")
    #expect(late.texts == [LineCollector.delivery("r", "2")])
    subscription.unsubscribe()
  }

  @Test("list shows retained and subscribed topics, not ones published to nobody")
  func list() throws {
    try registry.publish("1", to: "gone")
    try registry.publish("1", to: "p.x")
    try registry.publish("1", to: "kept", retain: true)
    let live = [
      try registry.subscribe(LineCollector(), to: "live"),
      try registry.subscribe(LineCollector(), to: "live"),
    ]
    // Patterns neither keep a topic nor count as its subscribers.
    let pattern = try registry.subscribe(LineCollector(), to: "*")
    try registry.publish("2", to: "p.y")
    try registry.publish("2", to: "live")

    var listed = registry.list()
    #expect(listed.map(\.name) == ["kept", "live"])
    #expect(listed.map(\.kind) == [.topic, .topic])
    #expect(listed.map(\.subscribers) == [0, 2])

    for subscription in live { subscription.unsubscribe() }
    pattern.unsubscribe()
    listed = registry.list()
    #expect(listed.map(\.name) == ["kept"])

    // A dropped topic comes back on the next subscribe.
    let again = LineCollector()
    let subscription = try registry.subscribe(again, to: "live")
    #expect(registry.list().map(\.name) == ["kept", "live"])
    #expect(try registry.publish("3", to: "live") == 1)
    #expect(again.texts == [LineCollector.delivery("live", "3")])
    subscription.unsubscribe()
  }

  @Test("a retained topic stays listed after its last subscriber leaves")
  func retainedStaysListed() throws {
    let subscription = try registry.subscribe(LineCollector(), to: "keep")
    try registry.publish("1", to: "keep", retain: true)
    subscription.unsubscribe()
    #expect(registry.list().map(\.name) == ["keep"])
    #expect(registry.list().map(\.subscribers) == [0])
  }

  @Test("a source stream is read-only and listed first")
  func sourceIsReadOnly() throws {
    let sourceCounters = ServerCounters()
    let clock = BuiltinStreams.clock()
    let registry = StreamRegistry(sources: [clock], counters: sourceCounters)
    for retain in [false, true] {
      #expect(Self.code { try registry.publish("1", to: "clock", retain: retain) } == .readOnly)
    }
    #expect(try registry.stream(named: "clock").name == clock.name)
    #expect(try registry.publish("1", to: "clock.sub", retain: true) == 0)
    let listed = registry.list()
    #expect(listed.map(\.name) == ["clock", "clock.sub"])
    #expect(listed.map(\.kind) == [.builtin, .topic])
    #expect(sourceCounters.snapshot.publishedTotal == 1)
  }

  @Test("bad names are refused for subscribe and publish, and count nothing")
  func badNames() {
    for name in ["", "a..b", "a b", "a.>.b", "a*", ".a", "é"] {
      #expect(Self.code { _ = try registry.stream(named: name) } == .badName, "\(name)")
    }
    for name in ["", "a..b", "a.*", ">", "a b"] {
      #expect(Self.code { try registry.publish("1", to: name) } == .badName, "\(name)")
    }
    let snapshot = counters.snapshot
    #expect(snapshot.subscribesTotal == 0)
    #expect(snapshot.publishedTotal == 0)
    #expect(registry.list().isEmpty)
  }

  /// The code of the error `body` throws, or `nil` when it throws nothing.
  private static func code(_ body: () throws -> Void) -> ErrorCode? {
    do {
      try body()
      return nil
    } catch {
      return (error as? ProtocolError)?.code
    }
  }
}
