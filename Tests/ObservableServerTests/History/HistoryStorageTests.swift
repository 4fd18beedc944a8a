import Testing

@testable import ObservableStreams

/// The history's storage: each topic's ring of publishes, and the server-wide order that
/// `--max-history-bytes` and `--history-ttl` evict from.
@Suite("History storage", .timeLimit(.minutes(1)))
struct HistoryStorageTests {
  /// The plain lines of `values`, one after another, as one publish carries them, in storage of
  /// their size, so that the history keeps the array itself.
  static func lines(_ values: [String]) -> [UInt8] {
    let text = values.map { $0 + "\n" }.joined().utf8
    return [UInt8](unsafeUninitializedCapacity: text.count) { target, initialized in
      initialized = target.initialize(from: text).1
    }
  }

  /// One publish's lines, built once, so that a test counts the very array the log holds: an
  /// array's capacity is what malloc gave it, and two allocations of one size can differ by a
  /// few bytes, so the cost of a copy is not the cost of the original.
  struct Publish {
    let lines: [UInt8]
    let count: Int
    /// What the publish counts against `--max-history-bytes`.
    var cost: Int { HistoryChunk(lines, first: 1, total: count, time: 0).cost }
  }

  /// A publish of `values`.
  static func publish(_ values: [String]) -> Publish {
    Publish(lines: lines(values), count: values.count)
  }

  /// Keeps `publish` as lines of topic `name`; returns the first sequence.
  @discardableResult
  static func record(
    _ log: inout HistoryLog, _ name: String, _ publish: Publish, at time: Int = 0
  ) -> UInt64 {
    log.record(publish.lines, count: publish.count, name: name, at: time)
  }

  /// Keeps `values` as lines of topic `name`, in one publish; returns the first sequence.
  @discardableResult
  static func record(
    _ log: inout HistoryLog, _ name: String, _ values: [String], at time: Int = 0
  ) -> UInt64 {
    record(&log, name, publish(values), at: time)
  }

  /// The values topic `name` holds, oldest first, without their newlines.
  static func held(_ log: HistoryLog, _ name: String) -> [String] {
    var held: [String] = []
    log.topic(name)?.forEachValue(after: 0) { _, line in
      held.append(String(decoding: line.dropLast(), as: UTF8.self))
    }
    return held
  }

  @Test func eachTopicEvictsItsOldestAtItsLimit() {
    var log = HistoryLog(configuration: .init(valuesPerTopic: 3))
    Self.record(&log, "a", ["1", "2"])
    Self.record(&log, "b", ["x"])
    let first = Self.record(&log, "a", ["3", "4", "5"])
    #expect(first == 4)
    #expect(Self.held(log, "a") == ["3", "4", "5"])
    #expect(Self.held(log, "b") == ["x"])
    #expect(log.values == 4)
    #expect(log.topic("a")?.lastEvicted == 2)
    #expect(log.reaches(back: 2, "a", isPattern: false))
    #expect(!log.reaches(back: 1, "a", isPattern: false))
  }

  @Test func theByteLimitEvictsTheServersOldestFirstWhateverItsTopic() {
    // One value of 9 bytes and its newline each.
    let old = ["o00000001", "o00000002"].map { Self.publish([$0]) }
    let new = ["n00000001", "n00000002", "n00000003", "n00000004"].map { Self.publish([$0]) }
    let held = (old + new[..<2]).map(\.cost).reduce(0, +)
    // Room for these four and half a value more: malloc may give two arrays of one size a few
    // bytes more or less room, so a limit of exactly four could also evict a new value when
    // the fourth new one has a few bytes more than the old one it replaces.
    let limit = held + (old + new).map(\.cost).min()! / 2
    var log = HistoryLog(configuration: .init(valuesPerTopic: 100, maxBytes: limit))
    for publish in old { Self.record(&log, "old", publish) }
    for publish in new[..<2] { Self.record(&log, "new", publish) }
    #expect(log.bytes == held)
    Self.record(&log, "new", new[2])
    #expect(Self.held(log, "old") == ["o00000002"])
    Self.record(&log, "new", new[3])
    // The old topic lost its last value, so the history forgot it.
    #expect(log.topic("old") == nil)
    #expect(Self.held(log, "new") == ["n00000001", "n00000002", "n00000003", "n00000004"])
    #expect(log.bytes == new.map(\.cost).reduce(0, +))
    #expect(log.droppedThrough == 2)
    #expect(!log.reaches(back: 1, "old", isPattern: false))
    #expect(!log.reaches(back: 0, "*", isPattern: true))
  }

  @Test func aSlotReusedByAnotherTopicKeepsItsValues() {
    let b = Self.publish(["b"])
    let c = Self.publish(["c"])
    let d = Self.publish(["d"])
    let limit = c.cost + max(b.cost, d.cost)
    var log = HistoryLog(configuration: .init(valuesPerTopic: 1, maxBytes: limit))
    // "a" keeps one value, so its earlier ones stay in the order as stale entries.
    for value in 1...5 { Self.record(&log, "a", ["\(value)"]) }
    Self.record(&log, "b", b)
    Self.record(&log, "c", c)
    // "a" went for the byte limit; "d" takes its slot, and the limit takes the server's
    // oldest value, of "b".
    #expect(log.topic("a") == nil)
    Self.record(&log, "d", d)
    #expect(log.topic("b") == nil)
    #expect(Self.held(log, "c") == ["c"])
    #expect(Self.held(log, "d") == ["d"])
    #expect(log.values == 2)
  }

  @Test func staleEntriesAreSweptOutOfTheOrder() {
    var log = HistoryLog(configuration: .init(valuesPerTopic: 2))
    for value in 0..<20_000 { Self.record(&log, "t\(value % 3)", ["\(value)"]) }
    #expect(log.values == 6)
    #expect(log.chunks == 6)
    #expect(log.orderCount <= 2 * log.chunks + 1025)
    #expect(Self.held(log, "t1") == ["19996", "19999"])
  }

  @Test func aPublishSplitsIntoItsLinesTheLastWithOrWithoutItsNewline() {
    #expect(DeliveryLines.split(Array("a\nbc\n".utf8)) == [Array("a\n".utf8), Array("bc\n".utf8)])
    #expect(DeliveryLines.split(Array("a\nbc".utf8)) == [Array("a\n".utf8), Array("bc".utf8)])
    #expect(DeliveryLines.split([]).isEmpty)
  }

  @Test func theTimeToLiveEvictsTheOldestValuesOnly() {
    let start = 1_000_000_000  // nanoseconds, as HistoryClock counts them
    let seconds = { (count: Int) in count * 1_000_000_000 }
    var log = HistoryLog(
      configuration: .init(valuesPerTopic: 100, timeToLive: .seconds(10)))
    Self.record(&log, "a", ["1"], at: start)
    Self.record(&log, "b", ["2"], at: start + seconds(5))
    Self.record(&log, "a", ["3"], at: start + seconds(8))
    log.evictExpired(now: start + seconds(9))
    #expect(log.values == 3)
    log.evictExpired(now: start + seconds(11))
    #expect(Self.held(log, "a") == ["3"])
    log.evictExpired(now: start + seconds(16))
    #expect(log.topic("b") == nil)
    #expect(Self.held(log, "a") == ["3"])
    log.evictExpired(now: start + seconds(19))
    #expect(log.values == 0 && log.bytes == 0)
    #expect(log.topic("a") == nil)
  }
}
