import Locking

/// The bytes all retained values together may take, shared by every topic of a registry.
///
/// A retained value replaces the topic's previous one, so a topic reserves only the difference;
/// a value that would pass the limit is refused and the topic keeps what it had.
final class RetainedBudget: Sendable {
  init(limit: Int, counters: ServerCounters) {
    self.limit = limit
    self.counters = counters
  }

  /// The most bytes all retained values may take together.
  let limit: Int

  /// Moves a topic's share from `old` to `new` bytes, unless that would pass the limit; returns
  /// whether it did.
  func replace(_ old: Int, with new: Int) -> Bool {
    let accepted = used.withLock { used in
      guard used - old + new <= limit || new <= old else { return false }
      used += new - old
      return true
    }
    counters.update {
      if accepted {
        $0.retainedBytes += new - old
      } else {
        $0.retainedLimitTotal += 1
      }
    }
    return accepted
  }

  private let counters: ServerCounters
  private let used = Locked(0)
}
