/// An observer that forwards each value to a closure.
///
/// ```swift
/// let observer = ValueObserver<Int> { value in print(value) }
/// ```
///
/// A source may call ``next`` from any thread, so an observer may be kept by a source that
/// emits on a thread of its own.
public final class ValueObserver<T>: Observer, @unchecked Sendable {
  // Unchecked: `next` is an immutable `let`. It is not `@Sendable`, so that 4.0-API closures
  // keep compiling; a source that emits on another thread documents it, as 4.0 sources did.
  /// The values this observer receives.
  public typealias Value = T

  /// Creates an observer that calls `next` for every value.
  ///
  /// - Parameter next: Called once for every emitted value.
  public init(_ next: @escaping (T) -> Void) {
    self.next = next
  }

  /// Called once for every emitted value.
  public let next: (T) -> Void
}
