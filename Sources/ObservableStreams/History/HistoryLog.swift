import ObservableWire

/// The values every topic's history holds, with the server-wide sequence and the bounds.
///
/// Each topic keeps its values oldest first, as the publishes that carried them
/// (``TopicHistory``), in a slot of `slots`, found by name and, for patterns, through a trie;
/// `order` keeps every publish the server holds in sequence order, so that
/// `--max-history-bytes` and `--history-ttl` evict the server's oldest first whatever its
/// topic, a whole publish at a time. Topics are values in an array rather than objects: the publish
/// path then counts no references and needs no run-time exclusivity checks.
struct HistoryLog {
  let configuration: HistoryConfiguration
  /// The sequence of the newest value; the next is one more.
  private(set) var sequence: UInt64 = 0
  /// Each topic's history; `nil` in a slot free for the next new topic.
  private(set) var slots: [TopicHistory?] = []
  private var freeSlots: [Int] = []
  /// The slot of each topic by name.
  private var slotByName: [String: Int] = [:]
  /// The same slots in a trie, for the topics a pattern matches.
  private var names = TokenTrie<Int>()
  private var order = HistoryOrder()
  /// Entries of the server-wide order, stale ones included; never more than about twice
  /// ``chunks``.
  var orderCount: Int { order.count }
  /// The publishes held, whole or trimmed.
  private(set) var chunks = 0
  /// The newest value lost with a topic the history forgot: a pattern, or a name whose topic
  /// the history no longer has, cannot be resumed from before it.
  private(set) var droppedThrough: UInt64 = 0
  private(set) var values = 0
  private(set) var bytes = 0
  /// The topic recorded to last, which the next publish most likely goes to as well.
  private var lastSlot: (name: String, slot: Int)?
  /// Values evicted since the server started, for `stats`.
  private(set) var evictedTotal = 0
  /// The sequences evicted since the recorder was last told, when there is one.
  var evictedSequences: [UInt64]?

  /// `--history-ttl` in nanoseconds, compared with the entries' times.
  private let timeToLiveNanoseconds: Int?

  init(configuration: HistoryConfiguration) {
    self.configuration = configuration
    timeToLiveNanoseconds = configuration.timeToLive.map(HistoryClock.nanoseconds)
  }

  /// Keeps the `count` plain lines of topic `name` in `lines`, one after another, published at
  /// `time` (``HistoryClock`` nanoseconds), as one chunk; returns the sequence of the first, the
  /// others following it one by one.
  mutating func record(_ lines: [UInt8], count: Int, name: String, at time: Int) -> UInt64 {
    let first = sequence + 1
    guard count > 0 else { return first }
    sequence += UInt64(count)
    let chunk = HistoryChunk(lines, first: first, total: count, time: time)
    let slot = self.slot(for: name)
    let kept = slots[slot]!.keep(
      chunk, limit: configuration.valuesPerTopic, evicted: &evictedSequences)
    bytes += chunk.cost - kept.freedCost
    values += count - kept.evicted
    chunks += 1 - kept.freedChunks
    evictedTotal += kept.evicted
    order.append(first, slot: slot)
    if bytes > configuration.maxBytes { evictForByteLimit() }
    if order.count > 2 * chunks + 1024 { sweepOrder() }
    return first
  }

  /// Keeps `line`, a value read back from the store, at its own `sequence`, which is later
  /// than any kept so far.
  mutating func restore(_ line: [UInt8], name: String, sequence: UInt64, at time: Int) {
    self.sequence = sequence - 1
    _ = record(line, count: 1, name: name, at: time)
  }

  /// Makes the next sequence come after `sequence`: the store's last, which may be past what
  /// it still holds.
  mutating func continueAfter(_ sequence: UInt64) {
    self.sequence = max(self.sequence, sequence)
  }

  /// Forgets the values older than `--history-ttl` allows at `now` (``HistoryClock``
  /// nanoseconds).
  mutating func evictExpired(now: Int) {
    guard let timeToLive = timeToLiveNanoseconds else { return }
    while let oldest = order.first {
      // Every value of a publish was published at the same time, so the chunk goes whole.
      if let chunk = slots[oldest.slot]?.oldestChunk, chunk.first == oldest.sequence {
        guard now - chunk.time > timeToLive else { return }
        evictOldestChunk(of: oldest.slot)
      }
      order.removeFirst()
    }
  }

  /// Whether nothing any topic `name` names (a pattern's topics, when `isPattern`) published
  /// after `sequence` was lost.
  func reaches(back sequence: UInt64, _ name: String, isPattern: Bool) -> Bool {
    guard isPattern else { return sequence >= (topic(name)?.lastEvicted ?? droppedThrough) }
    guard sequence >= droppedThrough else { return false }
    var reaches = true
    names.forEachName(matchedBy: name) { reaches = reaches && sequence >= slots[$0]!.lastEvicted }
    return reaches
  }

  /// The history of topic `name`, if it has one.
  func topic(_ name: String) -> TopicHistory? {
    slotByName[name].flatMap { slots[$0] }
  }

  /// The topics `name` names: itself, or those the pattern matches.
  func topics(named name: String, isPattern: Bool) -> [TopicHistory] {
    guard isPattern else { return topic(name).map { [$0] } ?? [] }
    var found: [TopicHistory] = []
    names.forEachName(matchedBy: name) { found.append(slots[$0]!) }
    return found
  }

  /// Forgets the server's oldest publishes until the history is within `--max-history-bytes`.
  private mutating func evictForByteLimit() {
    while bytes > configuration.maxBytes, let oldest = order.first {
      order.removeFirst()
      if slots[oldest.slot]?.oldestChunk?.first == oldest.sequence {
        evictOldestChunk(of: oldest.slot)
      }
    }
  }

  /// Drops the order's stale entries, those of publishes their topics no longer hold.
  private mutating func sweepOrder() {
    // Each slot's oldest chunk, read once rather than once per entry: a topic holds every
    // chunk from its oldest on, and a slot reused by a newer topic holds only later ones.
    let oldest = slots.map { $0?.oldestChunk?.first ?? .max }
    order.sweep { entry in entry.sequence >= oldest[entry.slot] }
  }

  /// The slot of topic `name`, made if the history has no such topic.
  private mutating func slot(for name: String) -> Int {
    if let last = lastSlot, last.name == name { return last.slot }
    let slot = slotByName[name] ?? makeTopic(name)
    lastSlot = (name, slot)
    return slot
  }

  private mutating func makeTopic(_ name: String) -> Int {
    let topic = TopicHistory(name: name, lastEvicted: droppedThrough)
    let slot: Int
    if let free = freeSlots.popLast() {
      slot = free
      slots[slot] = topic
    } else {
      slot = slots.count
      slots.append(topic)
    }
    slotByName[name] = slot
    names.update(name) { $0 = slot }
    return slot
  }

  /// Forgets the oldest publish of the topic in `slot`, and the topic when that was its last.
  private mutating func evictOldestChunk(of slot: Int) {
    let removed = slots[slot]!.removeOldestChunk(evicted: &evictedSequences)
    bytes -= removed.cost
    values -= removed.values
    chunks -= 1
    evictedTotal += removed.values
    guard let topic = slots[slot], topic.chunkCount == 0 else { return }
    droppedThrough = max(droppedThrough, topic.lastEvicted)
    slots[slot] = nil
    freeSlots.append(slot)
    if lastSlot?.slot == slot { lastSlot = nil }
    slotByName[topic.name] = nil
    names.update(topic.name) { $0 = nil }
  }
}
