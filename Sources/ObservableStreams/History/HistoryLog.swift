/// The values every topic's history holds, with the server-wide sequence and the bounds.
///
/// Each topic keeps its values oldest first (``TopicHistory``); `order` keeps every value the
/// server holds in sequence order, so that `--max-history-bytes` and `--history-ttl` evict the
/// server's oldest first whatever its topic. A value a topic lost to `--history` leaves a stale
/// entry in `order`, skipped when reached and swept out once stale entries outnumber live ones.
struct HistoryLog {
  let configuration: HistoryConfiguration
  /// The sequence of the newest value; the next is one more.
  private(set) var sequence: UInt64 = 0
  private(set) var topics: [String: TopicHistory] = [:]
  /// The same topics in a trie, for the topics a pattern matches.
  private var names = TokenTrie<TopicHistory>()
  private var order = HistoryRing<(sequence: UInt64, topic: TopicHistory)>()
  /// The newest value lost with a topic the history forgot: a pattern, or a name whose topic
  /// the history no longer has, cannot be resumed from before it.
  private(set) var droppedThrough: UInt64 = 0
  private(set) var values = 0
  private(set) var bytes = 0
  /// The topic recorded to last, which the next value most likely goes to as well.
  private var lastTopic: TopicHistory?
  /// Values evicted since the counters were last told.
  var evictedSinceReport = 0
  /// The sequences evicted since the recorder was last told, when there is one.
  var evictedSequences: [UInt64]?

  init(configuration: HistoryConfiguration) {
    self.configuration = configuration
  }

  /// Keeps `line`, the plain line of one value of topic `name`; returns its sequence.
  mutating func record(_ line: [UInt8], name: String, at time: ContinuousClock.Instant) -> UInt64 {
    sequence += 1
    // A batch's lines share their topic: compared by name, it is not hashed again.
    let topic: TopicHistory
    if let last = lastTopic, !last.dropped, last.name == name {
      topic = last
    } else {
      topic = topics[name] ?? makeTopic(name)
      lastTopic = topic
    }
    let entry = HistoryEntry(sequence: sequence, line: line, time: time)
    topic.append(entry)
    order.append((sequence, topic))
    values += 1
    bytes += entry.cost
    if topic.entries.count > configuration.valuesPerTopic { evictOldest(of: topic) }
    while bytes > configuration.maxBytes, let oldest = order.first {
      order.removeFirst()
      if oldest.topic.holdsOldest(oldest.sequence) { evictOldest(of: oldest.topic) }
    }
    if order.count > 2 * values + 1024 { order.keep { $0.topic.holds($0.sequence) } }
    return sequence
  }

  /// Keeps `line`, a value read back from the store, at its own `sequence`, which is later
  /// than any kept so far.
  mutating func restore(
    _ line: [UInt8], name: String, sequence: UInt64, at time: ContinuousClock.Instant
  ) {
    self.sequence = sequence - 1
    _ = record(line, name: name, at: time)
  }

  /// Makes the next sequence come after `sequence`: the store's last, which may be past what
  /// it still holds.
  mutating func continueAfter(_ sequence: UInt64) {
    self.sequence = max(self.sequence, sequence)
  }

  /// Forgets the values older than `--history-ttl` allows at `now`.
  mutating func evictExpired(now: ContinuousClock.Instant) {
    guard let timeToLive = configuration.timeToLive else { return }
    while let oldest = order.first {
      if oldest.topic.holdsOldest(oldest.sequence) {
        guard now - oldest.topic.entries[0].time > timeToLive else { return }
        evictOldest(of: oldest.topic)
      }
      order.removeFirst()
    }
  }

  /// Whether nothing any topic `name` names (a pattern's topics, when `isPattern`) published
  /// after `sequence` was lost.
  func reaches(back sequence: UInt64, _ name: String, isPattern: Bool) -> Bool {
    guard isPattern else { return sequence >= (topics[name]?.lastEvicted ?? droppedThrough) }
    guard sequence >= droppedThrough else { return false }
    var reaches = true
    names.forEachName(matchedBy: name) { reaches = reaches && sequence >= $0.lastEvicted }
    return reaches
  }

  /// The topics `name` names: itself, or those the pattern matches.
  func topics(named name: String, isPattern: Bool) -> [TopicHistory] {
    guard isPattern else { return topics[name].map { [$0] } ?? [] }
    var found: [TopicHistory] = []
    names.forEachName(matchedBy: name) { found.append($0) }
    return found
  }

  private mutating func makeTopic(_ name: String) -> TopicHistory {
    let topic = TopicHistory(name: name, lastEvicted: droppedThrough)
    topics[name] = topic
    names.update(name) { $0 = topic }
    return topic
  }

  private mutating func evictOldest(of topic: TopicHistory) {
    let entry = topic.evictOldest()
    values -= 1
    bytes -= entry.cost
    evictedSinceReport += 1
    evictedSequences?.append(entry.sequence)
    guard topic.entries.isEmpty else { return }
    topic.dropped = true
    droppedThrough = max(droppedThrough, topic.lastEvicted)
    topics[topic.name] = nil
    names.update(topic.name) { $0 = nil }
  }
}
