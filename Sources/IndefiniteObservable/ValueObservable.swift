/// An ``IndefiniteObservable`` of plain values, subscribed to with a closure.
///
/// ```swift
/// let observable = ValueObservable<Int> { observer in
///   observer.next(5)
///   return noopDisconnect
/// }
/// let subscription = observable.subscribe { print($0) }
/// subscription.unsubscribe()
/// ```
///
/// A `ValueObservable` may be handed to another thread or a `Task`: its only state is the
/// connect closure, set once in `init` and never changed.
public final class ValueObservable<T>: IndefiniteObservable<ValueObserver<T>>, @unchecked Sendable {
  // Unchecked: the one stored property (in the superclass) is an immutable `let` closure. It is
  // not `@Sendable`, so that 4.0-API code keeps compiling; subscribing from several threads is
  // as safe as the source the closure wraps, which is what the 4.0 API promised too.
  /// Subscribes a closure that receives every value.
  ///
  /// - Parameter next: Called once for every emitted value.
  /// - Returns: A subscription whose first ``Subscription/unsubscribe()`` runs the disconnect.
  @discardableResult
  public func subscribe(_ next: @escaping (T) -> Void) -> Subscription {
    subscribe(observer: ValueObserver(next))
  }
}
