import Locking
import ObservableCounters

/// The bytes all retained values together may take, shared by every topic of a registry.
///
/// A retained value replaces the topic's previous one, so a topic reserves only the difference;
/// a value that would pass the limit is refused and the topic keeps what it had.
///
/// A value is charged with what keeping it costs, not its bytes alone: a topic kept only for its
/// retained value holds its ``Topic``, its name in the table and the trie, and the value's
/// array. With values of one byte, counting value bytes only let 64 MiB of budget grow RSS by
/// several hundred MB.
package final class RetainedBudget: Sendable {
  package init(limit: Int, counters: ServerCounters) {
    self.limit = limit
    self.counters = counters
  }

  /// The most bytes all retained values may take together.
  package let limit: Int

  /// What keeping a retained value costs a topic named `name` besides the value's line.
  ///
  /// Measured on RSS with 200,000 topics, each kept only by a one-byte retained value: 400
  /// bytes a topic for `t.N` (a 32-byte line),
  /// 527 for `some.longer.topic.name.here.N`, 879 for `aN.bN.N` and 808 for
  /// `averyveryverylongtopicnameN.N`, whose tokens are new trie nodes each. A fixed part, a
  /// trie node per token (whether new or shared; shared ones are thus overcounted) and the
  /// name's copies cover every case within a fifth or better, never below by more than that.
  static func overhead(name: String) -> Int {
    let tokens = name.utf8.reduce(1) { $0 + ($1 == UInt8(ascii: ".") ? 1 : 0) }
    return topicBytes + tokens * trieNodeBytes + 2 * name.utf8.count
  }

  /// A topic's object, its table entry and the retained array's header, as allocated.
  static let topicBytes = 240
  /// One trie node with its entry in its parent's children.
  static let trieNodeBytes = 160

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
