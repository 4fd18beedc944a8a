import IndefiniteObservable
import Testing

@testable import ObservableCounters
@testable import ObservableServer
@testable import ObservableStreams
@testable import ObservableWire

/// Pattern subscriptions through the index: `"sub"` on their deliveries, encoding once per
/// pattern, `list(matching:)`, and the index emptied as subscriptions leave.
@Suite(.timeLimit(.minutes(1)))
struct StreamRegistryPatternTests {
  let counters = ServerCounters()
  let registry: StreamRegistry

  init() {
    registry = StreamRegistry(sources: [], counters: counters)
  }

  @Test("overlapping subscriptions on one observer get one line each, told apart by sub")
  func overlapping() throws {
    let connection = LineCollector()
    let subscriptions = try ["room.*", "room.>", "room.1"].map {
      try registry.subscribe(connection, to: $0)
    }
    #expect(try registry.publish("21.5", to: "room.1") == 3)
    #expect(
      connection.texts.sorted()
        == [
          LineCollector.delivery("room.1", "21.5"),
          LineCollector.delivery("room.1", "21.5", sub: "room.*"),
          LineCollector.delivery("room.1", "21.5", sub: "room.>"),
        ].sorted())
    // room.2 has no topic: only the index delivers it.
    #expect(try registry.publish("7", to: "room.2") == 2)
    #expect(try registry.publish("8", to: "room.2.x") == 1)
    #expect(connection.lines.count == 6)
    #expect(
      Set(connection.texts.suffix(3)) == [
        LineCollector.delivery("room.2", "7", sub: "room.*"),
        LineCollector.delivery("room.2", "7", sub: "room.>"),
        LineCollector.delivery("room.2.x", "8", sub: "room.>"),
      ])
    for subscription in subscriptions { subscription.unsubscribe() }
    #expect(registry.patternCount == 0)
  }

  @Test("a pattern and a direct subscription on one connection get a copy each, told apart by sub")
  func patternAndDirect() throws {
    let connection = LineCollector()
    let subscriptions = [
      try registry.subscribe(connection, to: "a.b"), try registry.subscribe(connection, to: "a.*"),
      try registry.subscribe(connection, to: "a.>"),
    ]
    #expect(try registry.publish("9", to: "a.b") == 3)
    #expect(
      connection.texts.sorted()
        == [
          LineCollector.delivery("a.b", "9"), LineCollector.delivery("a.b", "9", sub: "a.*"),
          LineCollector.delivery("a.b", "9", sub: "a.>"),
        ].sorted())
    subscriptions[0].unsubscribe()
    // The topic is gone, the patterns still match.
    #expect(try registry.publish("8", to: "a.b") == 2)
    #expect(
      connection.texts.suffix(2).sorted()
        == [
          LineCollector.delivery("a.b", "8", sub: "a.*"),
          LineCollector.delivery("a.b", "8", sub: "a.>"),
        ].sorted())
    for subscription in subscriptions { subscription.unsubscribe() }
  }

  @Test("a late pattern subscriber gets the retained value of every matching topic")
  func retainedToPattern() throws {
    try registry.publish("1", to: "news.a", retain: true)
    try registry.publish("2", to: "news.b", retain: true)
    try registry.publish("3", to: "news.a.deep", retain: true)
    try registry.publish("4", to: "other", retain: true)
    let late = LineCollector()
    let subscription = try registry.subscribe(late, to: "news.*")
    #expect(
      Set(late.texts) == [
        LineCollector.delivery("news.a", "1", sub: "news.*"),
        LineCollector.delivery("news.b", "2", sub: "news.*"),
      ])
    #expect(late.lines.count == 2)
    #expect(try registry.publish("5", to: "news.b") == 1)
    #expect(late.texts.last == LineCollector.delivery("news.b", "5", sub: "news.*"))
    subscription.unsubscribe()
  }

  @Test("observers of one pattern share one encoded line", arguments: [false, true])
  func encodedOncePerPattern(withTopic: Bool) throws {
    let first = LineCollector()
    let second = LineCollector()
    let other = LineCollector()
    var subscriptions = [
      try registry.subscribe(first, to: "s.*"), try registry.subscribe(second, to: "s.*"),
      try registry.subscribe(other, to: "s.>"),
    ]
    if withTopic { subscriptions.append(try registry.subscribe(LineCollector(), to: "s.1")) }
    #expect(try registry.publish("1", to: "s.1") == (withTopic ? 4 : 3))
    let lines = [first, second, other].map { $0.lines.first ?? [] }
    let storage = lines.map { $0.withUnsafeBufferPointer { $0.baseAddress } }
    #expect(storage[0] != nil)
    #expect(storage[0] == storage[1])
    #expect(storage[0] != storage[2])
    #expect(lines[0] == Array(LineCollector.delivery("s.1", "1", sub: "s.*").utf8))
    for subscription in subscriptions { subscription.unsubscribe() }
  }

  @Test(
    "a batched chunk reaches pattern observers relabelled line by line", arguments: [false, true])
  func batchedChunk(withTopic: Bool) throws {
    let pattern = LineCollector()
    var subscriptions = [try registry.subscribe(pattern, to: "b.*")]
    let direct = LineCollector()
    if withTopic { subscriptions.append(try registry.subscribe(direct, to: "b.x")) }
    let values = ["1", #""two""#, #"{"3":[3]}"#]
    let prefix = DeliveryEncoder.prefix(stream: "b.x")
    var chunk: [UInt8] = []
    for value in values {
      Array(value.utf8).withUnsafeBytes {
        DeliveryEncoder.append(rawValue: $0, after: prefix, to: &chunk)
      }
    }
    var lastTopic: Topic?
    let receivers = registry.deliver(
      chunk, count: values.count, to: "b.x", retain: false, lastTopic: &lastTopic)
    #expect(receivers == (withTopic ? 2 : 1))
    #expect(
      pattern.texts == [values.map { LineCollector.delivery("b.x", $0, sub: "b.*") }.joined()])
    #expect(
      direct.texts == (withTopic ? [values.map { LineCollector.delivery("b.x", $0) }.joined()] : [])
    )
    #expect(counters.snapshot.publishedTotal == values.count)
    for subscription in subscriptions { subscription.unsubscribe() }
  }

  @Test("a retained value reaches a later pattern subscriber with sub")
  func retainedWithSub() throws {
    try registry.publish("1", to: "k.a", retain: true)
    let late = LineCollector()
    let subscription = try registry.subscribe(late, to: "k.>")
    #expect(late.texts == [LineCollector.delivery("k.a", "1", sub: "k.>")])
    subscription.unsubscribe()
  }

  @Test("list(matching:) filters by name or pattern; nil lists all; bad filters are refused")
  func listMatching() throws {
    let sourceCounters = ServerCounters()
    let clock = BuiltinStreams.clock()
    let registry = StreamRegistry(sources: [clock], counters: sourceCounters)
    defer { registry.shutdown() }
    for name in ["room.1", "room.2", "room.2.deep", "hall"] {
      try registry.publish("0", to: name, retain: true)
    }
    let held = try registry.subscribe(LineCollector(), to: "room.1")
    #expect(try registry.list(matching: "room.*").map(\.name) == ["room.1", "room.2"])
    #expect(try registry.list(matching: "room.*").map(\.subscribers) == [1, 0])
    #expect(
      try registry.list(matching: "room.>").map(\.name) == ["room.1", "room.2", "room.2.deep"])
    #expect(try registry.list(matching: "*").map(\.name) == ["clock", "hall"])
    #expect(try registry.list(matching: "hall").map(\.name) == ["hall"])
    #expect(try registry.list(matching: "clock").map(\.kind) == [.builtin])
    #expect(try registry.list(matching: "nothing.*").isEmpty)
    #expect(try registry.list(matching: "absent").isEmpty)
    #expect(try registry.list(matching: nil).map(\.name) == registry.list().map(\.name))
    for bad in ["", "a..b", "a.>.b", "a b"] {
      #expect(throws: ProtocolError.self, "\(bad)") { try registry.list(matching: bad) }
    }
    held.unsubscribe()
  }

  @Test("pattern subscriptions leave the index, and their topics, when they end")
  func indexEmpties() throws {
    let direct = try registry.subscribe(LineCollector(), to: "i.1")
    let patterns = try ["i.*", "i.>", "*.1", ">", "i.*"].map {
      try registry.subscribe(LineCollector(), to: $0)
    }
    #expect(registry.patternCount == 4)
    #expect(try registry.publish("1", to: "i.1") == 6)
    for subscription in patterns { subscription.unsubscribe() }
    #expect(registry.patternCount == 0)
    #expect(try registry.publish("2", to: "i.1") == 1)
    direct.unsubscribe()
    #expect(registry.list().isEmpty)
    #expect(try registry.publish("3", to: "i.1") == 0)
  }
}
