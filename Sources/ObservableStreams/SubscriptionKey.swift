import Synchronization

/// Hands out the keys that tell one subscription's observer from another's.
package enum SubscriptionKey {
  private static let last = Atomic<UInt64>(0)

  /// A key no other subscription in this process has.
  package static func next() -> UInt64 {
    last.wrappingAdd(1, ordering: .relaxed).newValue
  }
}
