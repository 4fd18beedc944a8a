import Locking

/// What a store's writer has done, for the server's `stats` and for tests.
package struct StoreStatistics: Sendable, Equatable {
  /// Transactions committed.
  package private(set) var transactions = 0
  /// Changes those transactions held.
  package private(set) var changes = 0
  /// Transactions that failed and were rolled back.
  package private(set) var failures = 0
  /// SQLite's words for the latest failure, or empty.
  package private(set) var lastFailure = ""
  /// Whether every history value handed to the store was queued and written; once not, the
  /// next run takes a new epoch.
  package private(set) var keptContinuity = true

  /// Counts a committed transaction of `count` changes.
  mutating func committed(_ count: Int) {
    transactions += 1
    changes += count
  }

  /// Counts a failed transaction, and why.
  mutating func failed(_ reason: String) {
    failures += 1
    lastFailure = reason
  }

  /// Notes that a history value was lost, or that the run's positions must not be continued.
  mutating func breakContinuity() {
    keptContinuity = false
  }
}

/// A store's statistics, updated by its writer thread and read by anyone.
final class SharedStatistics: Sendable {
  private let counts = Locked(StoreStatistics())

  /// Counts a committed transaction of `count` changes.
  func committed(_ count: Int) { counts.withLock { $0.committed(count) } }

  /// Counts a failed transaction, and why.
  func failed(_ reason: String) { counts.withLock { $0.failed(reason) } }

  /// Notes that the next run must take a new epoch.
  func breakContinuity() { counts.withLock { $0.breakContinuity() } }

  /// The counts now.
  var current: StoreStatistics { counts.withLock { $0 } }
}
