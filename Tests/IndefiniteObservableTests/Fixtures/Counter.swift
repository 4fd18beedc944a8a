import Locking

/// A tally that any thread may bump, for counting connects, disconnects and calls.
final class Counter: Sendable {
  private let tally = Locked(0)

  var value: Int { tally.withLock { $0 } }

  func increment() {
    tally.withLock { $0 += 1 }
  }
}
