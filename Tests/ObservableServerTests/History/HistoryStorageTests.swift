import Testing

@testable import ObservableStreams

/// The history's storage: each topic's ring of publishes, and the server-wide order that
/// `--max-history-bytes` and `--history-ttl` evict from.
@Suite("History storage", .timeLimit(.minutes(1)))
struct HistoryStorageTests {
  /// The plain lines of `values`, one after another, as one publish carries them, in storage of
  /// their size, so that publishes of as many bytes cost the same.
  static func lines(_ values: [String]) -> [UInt8] {
    let text = values.map { $0 + "\n" }.joined().utf8
    return [UInt8](unsafeUninitializedCapacity: text.count) { target, initialized in
      initialized = target.initialize(from: text).1
    }
  }

  /// What a publish of `values` counts against `--max-history-bytes`.
  static func cost(_ values: [String]) -> Int {
    HistoryChunk(lines(values), first: 1, total: values.count, time: 0).cost
  }

  /// Keeps `values` as lines of topic `name`, in one publish; returns the first sequence.
  @discardableResult
  static func record(
    _ log: inout HistoryLog, _ name: String, _ values: [String], at time: Int = 0
  ) -> UInt64 {
    log.record(lines(values), count: values.count, name: name, at: time)
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
    let cost = Self.cost(["o00000001"])  // one value of 9 bytes and its newline
    var log = HistoryLog(configuration: .init(valuesPerTopic: 100, maxBytes: 4 * cost))
    for value in ["o00000001", "o00000002"] { Self.record(&log, "old", [value]) }
    for value in ["n00000001", "n00000002"] { Self.record(&log, "new", [value]) }
    #expect(log.bytes == 4 * cost)
    Self.record(&log, "new", ["n00000003"])
    #expect(Self.held(log, "old") == ["o00000002"])
    Self.record(&log, "new", ["n00000004"])
    // The old topic lost its last value, so the history forgot it.
    #expect(log.topic("old") == nil)
    #expect(Self.held(log, "new") == ["n00000001", "n00000002", "n00000003", "n00000004"])
    #expect(log.bytes == 4 * cost)
    #expect(log.droppedThrough == 2)
    #expect(!log.reaches(back: 1, "old", isPattern: false))
    #expect(!log.reaches(back: 0, "*", isPattern: true))
  }

  @Test func aSlotReusedByAnotherTopicKeepsItsValues() {
    let cost = Self.cost(["a"])
    var log = HistoryLog(configuration: .init(valuesPerTopic: 1, maxBytes: 2 * cost))
    // "a" keeps one value, so its earlier ones stay in the order as stale entries.
    for value in 1...5 { Self.record(&log, "a", ["\(value)"]) }
    Self.record(&log, "b", ["b"])
    Self.record(&log, "c", ["c"])
    // "a" went for the byte limit; "d" takes its slot, and the limit takes the server's
    // oldest value, of "b".
    #expect(log.topic("a") == nil)
    Self.record(&log, "d", ["d"])
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
