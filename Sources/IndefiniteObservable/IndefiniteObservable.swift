/// A sequence of values that may be observed and that never completes or fails.
///
/// `IndefiniteObservable` is the part of the ReactiveX `Observable` that streams without an end
/// need: one channel, `next`. Nothing happens until somebody subscribes; each call to
/// ``subscribe(observer:)`` calls the connect closure once with that observer, and the returned
/// ``Subscription`` runs the closure's ``Disconnect`` when it is unsubscribed.
///
/// A synchronous stream emits while it connects:
///
/// ```swift
/// let observable = ValueObservable<Int> { observer in
///   observer.next(5)
///   return noopDisconnect
/// }
/// let subscription = observable.subscribe { value in
///   print(value)
/// }
/// ```
///
/// An asynchronous stream registers with a callback API and unregisters on disconnect:
///
/// ```swift
/// let observable = ValueObservable<Int> { observer in
///   let token = registerSomeCallback { callbackValue in
///     observer.next(callbackValue)
///   }
///   return {
///     unregisterCallback(token)
///   }
/// }
/// ```
///
/// Unsubscribing runs the disconnect once:
///
/// ```swift
/// subscription.unsubscribe()
/// ```
open class IndefiniteObservable<O: Observer> {
  /// Creates an observable that calls `connect` once for every subscription.
  ///
  /// - Parameter connect: Connects one observer to the source and returns its disconnect. It is
  ///   not called until ``subscribe(observer:)`` is.
  public init(_ connect: @escaping Connect<O>) {
    self.connect = connect
  }

  /// Connects `observer` to this observable.
  ///
  /// The connect closure runs once, now, on the calling thread. Keep the returned subscription to
  /// disconnect later: dropping it does not unsubscribe.
  ///
  /// - Parameter observer: The observer that receives the values.
  /// - Returns: A subscription whose first ``Subscription/unsubscribe()`` runs the disconnect.
  @discardableResult
  public final func subscribe(observer: O) -> Subscription {
    Subscription(connect(observer))
  }

  private let connect: Connect<O>
}
