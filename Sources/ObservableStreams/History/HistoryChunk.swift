import ObservableWire

/// One publish a topic's history keeps: its plain delivery lines as they were fanned out, the
/// sequence of the first, and how many of them `--history` has since trimmed from its front.
///
/// The history keeps publishes rather than values. A publish carries up to hundreds of values
/// of one topic, and its lines are an array the subscribers' outboxes already share, so keeping
/// it costs a reference instead of a copy, an entry and an eviction per value (about 430
/// instructions a value, a quarter of the server's work at one subscriber). A line's end is
/// looked for only when a resume or a `history` read needs the line. Plain data but for the
/// array, so the ring of chunks moves them with one reference count each.
struct HistoryChunk {
  /// The lines, `{"stream":NAME,"value":V}\n` each (the last may lack its newline); those
  /// trimmed stay until the whole chunk goes.
  let lines: [UInt8]
  /// The sequence of the first line; the others follow it one by one.
  let first: UInt64
  /// How many lines the publish carried.
  let total: Int
  /// How many lines from the front `--history` has forgotten.
  private(set) var trimmed = 0
  /// When it was published, in ``HistoryClock`` nanoseconds, for `--history-ttl`.
  let time: Int

  /// Keeps the `total` lines of `lines`, whose first has sequence `first`; copied into an array
  /// of their own when `lines` has much more room than it uses (a reused batch buffer), which
  /// the history would otherwise hold on to.
  init(_ lines: [UInt8], first: UInt64, total: Int, time: Int) {
    self.lines = lines.withoutSpareRoom
    self.first = first
    self.total = total
    self.time = time
  }

  /// The values held.
  var count: Int { total - trimmed }
  /// The sequence of the oldest value held.
  var oldest: UInt64 { first + UInt64(trimmed) }
  /// The sequence of the newest value.
  var last: UInt64 { first + UInt64(total) - 1 }

  /// What the chunk counts against `--max-history-bytes` for as long as any of its values is
  /// held: the array's storage and what holding it costs.
  var cost: Int { lines.capacity + Self.overhead }
  /// The array's header and its allocation's (48 bytes), the chunk in its topic's ring (40)
  /// and in the server-wide order (16), on 64-bit Linux.
  static let overhead = 104

  /// Forgets the oldest `count` values held, fewer than ``count``.
  mutating func trim(_ count: Int) {
    assert(count < self.count, "a chunk trimmed of all its values is removed instead")
    trimmed += count
  }

  /// Calls `body` with the sequence and line of each value held but the first `skip`, oldest
  /// first.
  func forEachValue(skipping skip: Int, _ body: (UInt64, UnsafeRawBufferPointer) -> Void) {
    let from = trimmed + skip
    guard from < total else { return }
    var index = 0
    lines.withUnsafeBytes { bytes in
      DeliveryLines.forEach(in: bytes) { line in
        if index >= from, index < total { body(first + UInt64(index), line) }
        index += 1
      }
    }
  }
}
