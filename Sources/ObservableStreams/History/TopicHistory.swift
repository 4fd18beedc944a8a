/// One value a topic's history keeps: its position in the server's sequence, where its plain
/// delivery line `{"stream":NAME,"value":V}\n` is in the topic's ``HistoryBytes``, and when it
/// was published. Plain data, so the ring of entries is copied and moved without reference
/// counting.
struct HistoryEntry {
  let sequence: UInt64
  /// The line's logical start in the topic's bytes.
  let start: Int
  let length: Int
  /// When it was published, in ``HistoryClock`` nanoseconds, for `--history-ttl`.
  let time: Int

  /// What the entry counts against `--max-history-bytes`: its line and what holding it costs.
  var cost: Int { length + Self.overhead }
  /// The entry (32 bytes), its slot in the server-wide order (16) and the ring's slack, on
  /// 64-bit Linux.
  static let overhead = 64
}

/// The values one topic's history holds, oldest first: a ring of entries that grows up to
/// `--history` and is reused from then on, and the lines' bytes in a ring of their own.
struct TopicHistory {
  let name: String
  private var entries: [HistoryEntry] = []
  /// Where the oldest entry is in `entries`.
  private var head = 0
  /// The entries held.
  private(set) var count = 0
  private var bytes = HistoryBytes()
  /// The sequence of the newest value this topic lost to a bound (0 if none): a resume from a
  /// position before it cannot be complete.
  private(set) var lastEvicted: UInt64

  init(name: String, lastEvicted: UInt64) {
    self.name = name
    self.lastEvicted = lastEvicted
  }

  /// The entry `offset` places from the oldest.
  subscript(offset: Int) -> HistoryEntry {
    var index = head + offset
    if index >= entries.count { index -= entries.count }
    return entries[index]
  }

  /// The oldest entry, if any.
  var oldest: HistoryEntry? { count == 0 ? nil : entries[head] }

  /// Keeps `line` as the newest value, forgetting the oldest first when the topic holds
  /// `limit` (`--history`) already; the ring never outgrows `limit`, and the topic stays
  /// although it may be empty for a moment (`--history 1`). One call does both, since each
  /// access to a topic in the history's array checks that array's storage for uniqueness.
  /// Returns the new value's cost against `--max-history-bytes`, and the value forgotten.
  mutating func keep(
    _ line: UnsafeRawBufferPointer, sequence: UInt64, time: Int, limit: Int
  ) -> (cost: Int, evicted: HistoryEntry?) {
    let evicted = count >= limit ? removeOldestEntry() : nil
    if count == entries.count { grow(limit: limit) }
    let entry = HistoryEntry(
      sequence: sequence, start: bytes.append(line), length: line.count, time: time)
    var tail = head + count
    if tail >= entries.count { tail -= entries.count }
    entries[tail] = entry
    count += 1
    return (entry.cost, evicted)
  }

  /// Forgets the oldest value; returns its cost against `--max-history-bytes`.
  mutating func removeOldest() -> Int {
    removeOldestEntry().cost
  }

  private mutating func removeOldestEntry() -> HistoryEntry {
    let entry = entries[head]
    head += 1
    if head == entries.count { head = 0 }
    count -= 1
    bytes.removeFirst(entry.length)
    lastEvicted = entry.sequence
    return entry
  }

  /// Whether `sequence` is one of the values held: each topic loses values from its front
  /// only, so every sequence from the oldest on is.
  func holds(_ sequence: UInt64) -> Bool {
    guard let oldest else { return false }
    return sequence >= oldest.sequence
  }

  /// The plain line of the value `offset` places from the oldest.
  func line(_ offset: Int) -> [UInt8] {
    let entry = self[offset]
    return bytes.line(start: entry.start, length: entry.length)
  }

  /// The index of the first entry after `sequence`, found by bisection.
  func firstIndex(after sequence: UInt64) -> Int {
    var low = 0
    var high = count
    while low < high {
      let middle = (low + high) / 2
      if self[middle].sequence <= sequence { low = middle + 1 } else { high = middle }
    }
    return low
  }

  /// Bytes the topic's rings hold now, for tests of what eviction gives back.
  var storageBytes: Int { bytes.capacity + entries.count * MemoryLayout<HistoryEntry>.stride }

  /// Doubles the ring of entries, up to `limit`, with the oldest moved to the front.
  private mutating func grow(limit: Int) {
    let capacity = min(max(8, 2 * entries.count), max(limit, count + 1))
    var grown: [HistoryEntry] = []
    grown.reserveCapacity(capacity)
    for offset in 0..<count { grown.append(self[offset]) }
    let filler = HistoryEntry(sequence: 0, start: 0, length: 0, time: 0)
    grown.append(contentsOf: repeatElement(filler, count: capacity - count))
    entries = grown
    head = 0
  }
}
