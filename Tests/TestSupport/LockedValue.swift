import Locking

/// A value behind a mutex, shareable between threads: `Locked` as a class, so that closures on
/// several threads can hold the same one.
public final class LockedValue<Value: Sendable>: Sendable {
  public init(_ value: Value) {
    mutex = Locked(value)
  }

  /// Changes or reads the value under the lock.
  public func withLock<Result: Sendable>(_ body: (inout Value) -> Result) -> Result {
    mutex.withLock { body(&$0) }
  }

  /// The value now.
  public var value: Value { mutex.withLock { $0 } }

  private let mutex: Locked<Value>
}
