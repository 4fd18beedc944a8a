/// The values one topic's history holds, oldest first: the publishes that carried them
/// (``HistoryChunk``) in a ring that grows up to `--history` chunks and is reused from then on.
///
/// `--history` forgets values from the front: the oldest chunk is trimmed by a count, and goes
/// when its last value does. A topic loses values from its front only, so it holds every one
/// of its sequences from its oldest on.
struct TopicHistory {
  let name: String
  private var chunks: [HistoryChunk] = []
  /// Where the oldest chunk is in `chunks`.
  private var head = 0
  /// The chunks held.
  private(set) var chunkCount = 0
  /// The values held.
  private(set) var count = 0
  /// The sequence of the newest value this topic lost to a bound (0 if none): a resume from a
  /// position before it cannot be complete.
  private(set) var lastEvicted: UInt64

  init(name: String, lastEvicted: UInt64) {
    self.name = name
    self.lastEvicted = lastEvicted
  }

  /// What keeping a publish changed, for the history's totals.
  struct Kept {
    /// The cost against `--max-history-bytes` of the chunks that went.
    var freedCost = 0
    var freedChunks = 0
    /// Values `--history` forgot.
    var evicted = 0
  }

  /// The chunk `offset` places from the oldest.
  func chunk(_ offset: Int) -> HistoryChunk {
    var index = head + offset
    if index >= chunks.count { index -= chunks.count }
    return chunks[index]
  }

  /// The oldest chunk, if any.
  var oldestChunk: HistoryChunk? { chunkCount == 0 ? nil : chunks[head] }

  /// Keeps `chunk` as the newest, then forgets the oldest values past `limit` (`--history`),
  /// appending their sequences to `evicted` when it is not `nil`. The topic stays although it
  /// may be empty for a moment (a publish of more values than `limit` trims itself). One call
  /// does both, since each access to a topic in the history's array checks that array's storage
  /// for uniqueness.
  mutating func keep(_ chunk: HistoryChunk, limit: Int, evicted: inout [UInt64]?) -> Kept {
    if chunkCount == chunks.count { grow(limit: limit) }
    var tail = head + chunkCount
    if tail >= chunks.count { tail -= chunks.count }
    chunks[tail] = chunk
    chunkCount += 1
    count += chunk.count
    var kept = Kept()
    while count > limit {
      let excess = count - limit
      let oldest = chunks[head]
      guard excess < oldest.count else {
        kept.evicted += oldest.count
        kept.freedCost += removeOldestChunk(evicted: &evicted).cost
        kept.freedChunks += 1
        continue
      }
      evicted?.append(contentsOf: oldest.oldest..<oldest.oldest + UInt64(excess))
      chunks[head].trim(excess)
      count -= excess
      kept.evicted += excess
      lastEvicted = chunks[head].oldest - 1
    }
    return kept
  }

  /// Forgets the oldest chunk, appending the sequences of its values to `evicted` when it is
  /// not `nil`; returns its cost against `--max-history-bytes` and how many values it held.
  mutating func removeOldestChunk(evicted: inout [UInt64]?) -> (cost: Int, values: Int) {
    let chunk = chunks[head]
    evicted?.append(contentsOf: chunk.oldest...chunk.last)
    // The filler releases the lines now rather than when the slot is reused.
    chunks[head] = Self.filler
    head += 1
    if head == chunks.count { head = 0 }
    chunkCount -= 1
    count -= chunk.count
    lastEvicted = chunk.last
    return (chunk.cost, chunk.count)
  }

  /// Whether `sequence` is one of the values held.
  func holds(_ sequence: UInt64) -> Bool {
    guard let oldest = oldestChunk else { return false }
    return sequence >= oldest.oldest
  }

  /// Calls `body` with the sequence and line of each value held after `sequence`, oldest first.
  func forEachValue(after sequence: UInt64, _ body: (UInt64, UnsafeRawBufferPointer) -> Void) {
    for offset in 0..<chunkCount {
      let chunk = self.chunk(offset)
      guard chunk.last > sequence else { continue }
      chunk.forEachValue(
        skipping: sequence < chunk.oldest ? 0 : Int(sequence - chunk.oldest) + 1, body)
    }
  }

  /// Calls `body` with the sequence and line of each of the newest `limit` values held (all of
  /// them when `limit` is `nil`), oldest first.
  func forEachValue(last limit: Int?, _ body: (UInt64, UnsafeRawBufferPointer) -> Void) {
    var skip = max(0, count - (limit ?? count))
    for offset in 0..<chunkCount {
      let chunk = self.chunk(offset)
      guard skip < chunk.count else {
        skip -= chunk.count
        continue
      }
      chunk.forEachValue(skipping: skip, body)
      skip = 0
    }
  }

  /// An empty chunk, in the slots of the ring that hold none.
  private static let filler = HistoryChunk([], first: 0, total: 0, time: 0)

  /// Doubles the ring, up to one more chunk than `limit`, with the oldest moved to the front: a
  /// topic holds at most `limit` values, each chunk at least one, and a new chunk comes in
  /// before the oldest are forgotten.
  private mutating func grow(limit: Int) {
    let capacity = min(max(8, 2 * chunks.count), max(limit + 1, chunkCount + 1))
    var grown: [HistoryChunk] = []
    grown.reserveCapacity(capacity)
    for offset in 0..<chunkCount { grown.append(chunk(offset)) }
    grown.append(contentsOf: repeatElement(Self.filler, count: capacity - chunkCount))
    chunks = grown
    head = 0
  }
}
