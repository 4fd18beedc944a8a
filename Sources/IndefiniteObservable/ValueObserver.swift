/// An observer that forwards each value to a closure.
///
/// ```swift
/// let observer = ValueObserver<Int> { value in print(value) }
/// ```
public final class ValueObserver<T>: Observer {
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
