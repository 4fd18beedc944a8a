/// What one subscriber received, checked against the order the server promises: every value of
/// a topic, in publish order, once.
struct SequenceTally {
  /// The sequence number expected next (one past the highest seen).
  private(set) var next: UInt64 = 0
  private(set) var received = 0
  /// Sequence numbers skipped over; a late arrival of one of them also counts as a duplicate.
  private(set) var skipped: UInt64 = 0
  private(set) var duplicated = 0

  @inline(__always)
  mutating func record(_ sequence: UInt64) {
    received += 1
    if sequence == next {
      next += 1
    } else if sequence > next {
      skipped += sequence - next
      next = sequence + 1
    } else {
      duplicated += 1
    }
  }

  /// Messages this subscriber never received, of `published`.
  func lost(of published: UInt64) -> UInt64 {
    skipped + (published > next ? published - next : 0)
  }
}
