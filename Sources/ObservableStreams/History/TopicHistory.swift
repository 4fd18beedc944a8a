import ObservableWire

/// One value the history keeps: its position in the server's sequence and its plain delivery
/// line, `{"stream":NAME,"value":V}\n`.
struct HistoryEntry {
  let sequence: UInt64
  let line: [UInt8]
  /// When it was published, for `--history-ttl`.
  let time: ContinuousClock.Instant

  /// What the entry counts against `--max-history-bytes`: its line and what holding it costs.
  var cost: Int { line.count + Self.overhead }
  /// The entry itself and its slot in the server-wide order, measured on 64-bit Linux.
  static let overhead = 64
}

/// The values one topic's history holds, oldest first.
final class TopicHistory {
  let name: String
  /// The length of `{"stream":NAME,"value":`, which each of the topic's lines starts with.
  let plainPrefixLength: Int
  private(set) var entries = HistoryRing<HistoryEntry>()
  /// The sequence of the newest value this topic lost to a bound (0 if none): a resume from a
  /// position before it cannot be complete.
  private(set) var lastEvicted: UInt64
  /// Set once the history forgot the topic; its entries in the server-wide order are stale.
  var dropped = false

  init(name: String, lastEvicted: UInt64) {
    self.name = name
    self.lastEvicted = lastEvicted
    plainPrefixLength = DeliveryEncoder.prefixLength(stream: name)
  }

  func append(_ entry: HistoryEntry) {
    entries.append(entry)
  }

  /// Forgets the oldest value.
  func evictOldest() -> HistoryEntry {
    let entry = entries.removeFirst()
    lastEvicted = entry.sequence
    return entry
  }

  /// Whether the oldest value is `sequence`: an entry of the server-wide order is live when it
  /// is, since each topic loses values from its front only.
  func holdsOldest(_ sequence: UInt64) -> Bool {
    !dropped && entries.first?.sequence == sequence
  }

  /// Whether `sequence` is one of the values held.
  func holds(_ sequence: UInt64) -> Bool {
    guard !dropped, let first = entries.first?.sequence else { return false }
    return sequence >= first
  }

  /// The index of the first entry after `sequence`, found by bisection.
  func firstIndex(after sequence: UInt64) -> Int {
    var low = 0
    var high = entries.count
    while low < high {
      let middle = (low + high) / 2
      if entries[middle].sequence <= sequence { low = middle + 1 } else { high = middle }
    }
    return low
  }
}
