import Synchronization

/// A `Mutex` whose hand-offs ThreadSanitizer can see, for state shared between threads.
///
/// On Linux, `Mutex` waits in the kernel (priority-inheriting futexes), which ThreadSanitizer
/// does not observe, so it reports accesses the mutex does protect as races. An acquiring load
/// when the lock is taken and a releasing store before it is given back cost nothing on x86 and
/// arm64, and show ThreadSanitizer the order the mutex already guarantees. Shared with the
/// package's other modules; not public API.
package struct Locked<Value: ~Copyable>: ~Copyable, Sendable {
  /// Creates a lock around `value`.
  package init(_ value: consuming sending Value) {
    mutex = Mutex(value)
  }

  /// Runs `body` with exclusive access to the value, exactly like `Mutex.withLock`.
  package borrowing func withLock<Result: ~Copyable, Failure: Error>(
    _ body: (inout sending Value) throws(Failure) -> sending Result
  ) throws(Failure) -> sending Result {
    try mutex.withLock { (value: inout sending Value) throws(Failure) -> sending Result in
      _ = handoff.load(ordering: .acquiring)
      defer { handoff.store(0, ordering: .releasing) }
      return try body(&value)
    }
  }

  private let mutex: Mutex<Value>
  private let handoff = Atomic<Int>(0)
}
