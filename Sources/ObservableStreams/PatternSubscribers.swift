/// The subscriptions to one pattern: what the ``StreamRegistry``'s pattern index keeps per
/// pattern, and what each matching ``Topic`` keeps per pattern.
///
/// Grouping by pattern is what lets a value be encoded once per pattern rather than once per
/// observer: every line through this pattern carries the same `"sub"`.
package struct PatternSubscribers {
  /// The pattern, as the subscribers wrote it.
  package let pattern: String
  /// One observer per subscription, under its subscription key.
  package var observers = ObserverSet()

  /// No subscriptions yet to `pattern`, an already validated pattern.
  package init(pattern: String) {
    self.pattern = pattern
  }
}
