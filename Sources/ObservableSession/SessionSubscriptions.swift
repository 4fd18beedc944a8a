import IndefiniteObservable

/// A session's subscriptions by stream name, kept so that they can be ended a few at a time.
///
/// A dictionary alone cannot give up its entries one by one cheaply, and ending or freeing a
/// million at once held the loop for seconds. Here the subscriptions sit in an array, with
/// their positions by name: one is removed by name in O(1) (the last takes its place), and
/// ``popLast()`` ends them in any number of slices, freeing as it goes.
package struct SessionSubscriptions {
  private var positions: [String: Int] = [:]
  private var entries: [(name: String, subscription: Subscription)] = []

  /// How many subscriptions there are.
  var count: Int { entries.count }

  /// Whether there are none.
  var isEmpty: Bool { entries.isEmpty }

  /// The names subscribed to, in no particular order.
  var names: [String] { entries.map(\.name) }

  /// Whether there is a subscription to `name`.
  func contains(_ name: String) -> Bool {
    positions[name] != nil
  }

  /// The subscription to `name`, if there is one.
  func subscription(named name: String) -> Subscription? {
    positions[name].map { entries[$0].subscription }
  }

  /// Adds the subscription to `name`, which has none yet.
  mutating func insert(_ name: String, _ subscription: Subscription) {
    positions[name] = entries.count
    entries.append((name, subscription))
  }

  /// Removes and returns the subscription to `name`, if there is one.
  mutating func remove(_ name: String) -> Subscription? {
    guard let position = positions.removeValue(forKey: name) else { return nil }
    let removed = entries[position].subscription
    let last = entries.removeLast()
    if position < entries.count {
      entries[position] = last
      positions[last.name] = position
    }
    return removed
  }

  /// Removes and returns the subscription added last that is still here.
  mutating func popLast() -> Subscription? {
    guard let last = entries.popLast() else { return nil }
    positions[last.name] = nil
    return last.subscription
  }
}
