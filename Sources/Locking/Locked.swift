import Synchronization

/// A `Mutex` whose hand-offs ThreadSanitizer can see, for state shared between threads.
///
/// On Linux, `Mutex` waits in the kernel (priority-inheriting futexes), which ThreadSanitizer
/// does not observe, so it reports accesses the mutex does protect as races. An acquiring load
/// when the lock is taken and a releasing store before it is given back cost nothing on x86 and
/// arm64, and show ThreadSanitizer the order the mutex already guarantees.
///
/// A module of its own, public, because the optimizer inlines only public bodies across
/// modules; a `package` one stayed an unspecialised generic call on the publish path.
public struct Locked<Value: ~Copyable>: ~Copyable, Sendable {
  /// Creates a lock around `value`.
  @inlinable
  public init(_ value: consuming sending Value) {
    mutex = Mutex(value)
  }

  /// Runs `body` with exclusive access to the value, like `Mutex.withLock`.
  ///
  /// Inlinable, so that every caller gets a specialised copy: an unspecialised generic call
  /// looks up type metadata at run time on every use, a tenth of the server's time on the
  /// publish path.
  @inlinable
  public borrowing func withLock<Result: ~Copyable>(
    _ body: (inout sending Value) -> sending Result
  ) -> sending Result {
    mutex.withLock { (value: inout sending Value) -> sending Result in
      _ = handoff.load(ordering: .acquiring)
      defer { handoff.store(0, ordering: .releasing) }
      return body(&value)
    }
  }

  @usableFromInline
  let mutex: Mutex<Value>
  @usableFromInline
  let handoff = Atomic<Int>(0)
}
