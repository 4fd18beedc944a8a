import Testing

@testable import ObservableStreams

/// The history keeps each publish whole (``HistoryChunk``): `--history` trims a publish's front
/// by a count and frees it once its last value goes, `--max-history-bytes` and `--history-ttl`
/// evict whole publishes, and every value keeps its own position.
@Suite("History chunks", .timeLimit(.minutes(1)))
struct HistoryChunkTests {
  typealias Storage = HistoryStorageTests

  /// A log whose evictions are listed, as they are for the store.
  static func listingLog(_ configuration: HistoryConfiguration) -> HistoryLog {
    var log = HistoryLog(configuration: configuration)
    log.evictedSequences = []
    return log
  }

  /// Each value `topic` holds after `sequence`, with its sequence.
  static func values(_ log: HistoryLog, _ topic: String, after sequence: UInt64 = 0) -> [String] {
    var values: [String] = []
    log.topic(topic)?.forEachValue(after: sequence) { sequence, line in
      values.append("\(sequence):" + String(decoding: line.dropLast(), as: UTF8.self))
    }
    return values
  }

  @Test func aPublishsFrontIsTrimmedByACountAndItIsFreedOnce() {
    var log = Self.listingLog(.init(valuesPerTopic: 3))
    let first = Storage.publish(["1", "2", "3", "4", "5"])
    // More values than the topic keeps: the publish trims itself.
    #expect(Storage.record(&log, "a", first) == 1)
    #expect(Self.values(log, "a") == ["3:3", "4:4", "5:5"])
    #expect(log.values == 3 && log.chunks == 1 && log.evictedTotal == 2)
    #expect(log.bytes == first.cost)
    #expect(log.topic("a")?.lastEvicted == 2)
    let second = Storage.publish(["6"])
    let third = Storage.publish(["7", "8"])
    Storage.record(&log, "a", second)
    #expect(Self.values(log, "a") == ["4:4", "5:5", "6:6"])
    #expect(log.chunks == 2)
    // The first publish's last value goes: the publish with it, its bytes counted off once.
    Storage.record(&log, "a", third)
    #expect(Self.values(log, "a") == ["6:6", "7:7", "8:8"])
    #expect(log.chunks == 2 && log.values == 3 && log.evictedTotal == 5)
    #expect(log.bytes == second.cost + third.cost)
    #expect(log.evictedSequences == [1, 2, 3, 4, 5])
    #expect(log.topic("a")?.lastEvicted == 5)
    #expect(log.reaches(back: 5, "a", isPattern: false))
    #expect(!log.reaches(back: 4, "a", isPattern: false))
  }

  @Test func aTrimmedPublishStillGivesEachValueItsPosition() {
    var log = HistoryLog(configuration: .init(valuesPerTopic: 4))
    Storage.record(&log, "a", ["a1", "a2", "a3"])
    Storage.record(&log, "b", ["b4", "b5"])
    Storage.record(&log, "a", ["a6", "a7"])
    // "a" keeps a2, a3 of its first publish and all of its second.
    #expect(Self.values(log, "a") == ["2:a2", "3:a3", "6:a6", "7:a7"])
    #expect(Self.values(log, "a", after: 2) == ["3:a3", "6:a6", "7:a7"])
    #expect(Self.values(log, "a", after: 3) == ["6:a6", "7:a7"])
    let resumed = HistoryPick.after(2, in: log.topics(named: "*", isPattern: true))
    #expect(resumed.map(\.sequence) == [3, 4, 5, 6, 7])
    #expect(resumed.map(\.topic) == ["a", "b", "b", "a", "a"])
    let last = HistoryPick.last(3, in: log.topics(named: "a", isPattern: false))
    #expect(last.map { String(decoding: $0.line, as: UTF8.self) } == ["a3\n", "a6\n", "a7\n"])
    #expect(log.topic("a")?.holds(2) == true)
    #expect(log.topic("a")?.holds(1) == false)
  }

  @Test func theByteLimitEvictsWholePublishesAcrossTheirBoundaries() {
    let big = Storage.publish(["o1", "o2", "o3", "o4"])
    let small = ["n5", "n6", "n7"].map { Storage.publish([$0]) }
    let limit = big.cost + small[0].cost + small[1].cost
    var log = Self.listingLog(.init(valuesPerTopic: 100, maxBytes: limit))
    Storage.record(&log, "old", big)
    Storage.record(&log, "new", small[0])
    Storage.record(&log, "new", small[1])
    #expect(log.values == 6 && log.bytes == limit)
    // One more small publish passes the limit: the server's oldest publish goes whole, all
    // four of its values counted.
    Storage.record(&log, "new", small[2])
    #expect(log.topic("old") == nil)
    #expect(log.values == 3 && log.chunks == 3 && log.evictedTotal == 4)
    #expect(log.bytes == small.map(\.cost).reduce(0, +))
    #expect(log.evictedSequences == [1, 2, 3, 4])
    #expect(log.droppedThrough == 4)
    #expect(Self.values(log, "new") == ["5:n5", "6:n6", "7:n7"])
  }

  @Test func theByteLimitCountsATrimmedPublishUntilItGoes() {
    let six = Storage.publish((1...6).map { "v\($0)" })
    let seventh = Storage.publish(["w7"])
    let limit = six.cost + seventh.cost
    var log = Self.listingLog(.init(valuesPerTopic: 3, maxBytes: limit))
    Storage.record(&log, "t", six)
    // Three of its values were trimmed, but the publish's bytes are still held.
    #expect(log.values == 3 && log.bytes == six.cost)
    Storage.record(&log, "t", seventh)
    #expect(log.bytes == limit && log.values == 3)
    #expect(Self.values(log, "t") == ["5:v5", "6:v6", "7:w7"])
    // Past the limit the server's oldest publish goes, with the two values it still held.
    Storage.record(&log, "u", ["x8"])
    #expect(Self.values(log, "t") == ["7:w7"])
    #expect(log.evictedSequences == [1, 2, 3, 4, 5, 6])
    #expect(log.evictedTotal == 6 && log.values == 2)
  }

  @Test func theTimeToLiveEvictsWholePublishes() {
    let second = 1_000_000_000
    var log = Self.listingLog(.init(valuesPerTopic: 3, timeToLive: .seconds(10)))
    Storage.record(&log, "a", ["1", "2", "3", "4"], at: second)
    let last = Storage.publish(["5"])
    Storage.record(&log, "a", last, at: 8 * second)
    #expect(Self.values(log, "a") == ["3:3", "4:4", "5:5"])
    log.evictExpired(now: 12 * second)
    #expect(Self.values(log, "a") == ["5:5"])
    #expect(log.evictedSequences == [1, 2, 3, 4])
    #expect(log.values == 1 && log.chunks == 1 && log.bytes == last.cost)
    log.evictExpired(now: 19 * second)
    #expect(log.topic("a") == nil && log.values == 0 && log.bytes == 0 && log.chunks == 0)
  }

  @Test func aPublishWithMuchMoreRoomThanItUsesIsKeptInAnArrayOfItsOwn() {
    var lines: [UInt8] = []
    lines.reserveCapacity(64 * 1024)
    lines.append(contentsOf: Array("{\"stream\":\"a\",\"value\":1}\n".utf8))
    let chunk = HistoryChunk(lines, first: 1, total: 1, time: 0)
    #expect(chunk.lines == lines)
    #expect(chunk.cost < 1024)
    // A publish's own array, nearly full, is shared, not copied.
    let full = Array(repeating: UInt8(ascii: "x"), count: 1000) + [0x0A]
    let shared = HistoryChunk(full, first: 1, total: 1, time: 0)
    let sameStorage = full.withUnsafeBufferPointer { mine in
      shared.lines.withUnsafeBufferPointer { kept in mine.baseAddress == kept.baseAddress }
    }
    #expect(sameStorage)
  }
}
