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
public final class ValueObservable<T>: IndefiniteObservable<ValueObserver<T>> {
  /// Subscribes a closure that receives every value.
  ///
  /// - Parameter next: Called once for every emitted value.
  /// - Returns: A subscription whose first ``Subscription/unsubscribe()`` runs the disconnect.
  @discardableResult
  public func subscribe(_ next: @escaping (T) -> Void) -> Subscription {
    subscribe(observer: ValueObserver(next))
  }
}
