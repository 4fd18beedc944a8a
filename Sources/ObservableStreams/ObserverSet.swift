/// Observers of one stream in an array that fan-out can walk quickly, with O(1) removal.
package struct ObserverSet {
  private(set) var observers: [StreamObserver] = []
  private var keys: [UInt64] = []
  private var positions: [UInt64: Int] = [:]

  /// An empty set.
  package init() {}

  package var count: Int { observers.count }
  package var isEmpty: Bool { observers.isEmpty }

  /// Adds `observer` under a key unique within this set.
  package mutating func insert(_ observer: StreamObserver, key: UInt64) {
    positions[key] = observers.count
    observers.append(observer)
    keys.append(key)
  }

  /// Removes the observer added under `key`; returns whether it was there.
  @discardableResult
  package mutating func remove(key: UInt64) -> Bool {
    guard let position = positions.removeValue(forKey: key) else { return false }
    let last = observers.count - 1
    if position != last {
      observers[position] = observers[last]
      keys[position] = keys[last]
      positions[keys[position]] = position
    }
    observers.removeLast()
    keys.removeLast()
    if observers.isEmpty {
      // Frees the storage of a set that once had many observers.
      observers = []
      keys = []
      positions = [:]
    }
    return true
  }

  /// Hands `lines` to every observer.
  package func deliver(_ lines: [UInt8]) {
    for observer in observers { observer.next(lines) }
  }
}
