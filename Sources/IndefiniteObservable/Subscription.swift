import Locking

/// The link between one observer and its source, returned by
/// ``IndefiniteObservable/subscribe(observer:)``.
///
/// The first call to ``unsubscribe()`` runs the disconnect; every later call does nothing. This
/// holds when many threads call ``unsubscribe()`` at the same moment: exactly one of them runs
/// the disconnect. Releasing the last reference to a subscription does not unsubscribe, as in
/// version 4.0 of the reference library.
///
/// ```swift
/// let subscription = observable.subscribe { value in
///   print(value)
/// }
/// subscription.unsubscribe()
/// ```
public final class Subscription: Sendable {
  /// Creates a subscription that runs `disconnect` on its first ``unsubscribe()``.
  ///
  /// - Parameter disconnect: The tear-down for one connected observer.
  public init(_ disconnect: @escaping Disconnect) {
    pending = Locked(PendingDisconnect(run: disconnect))
  }

  /// Disconnects the observer from its source, once.
  ///
  /// The disconnect runs outside the subscription's lock, so it may itself call
  /// ``unsubscribe()`` again, which then does nothing. Once it has run, the subscription no
  /// longer holds the disconnect, nor anything the disconnect captured.
  public func unsubscribe() {
    let taken = pending.withLock { $0.take() }
    taken?.run()
  }

  private let pending: Locked<PendingDisconnect?>
}

/// A disconnect waiting for the one ``Subscription/unsubscribe()`` allowed to run it.
///
/// The closure is not `@Sendable`, so that code written for the 4.0 API keeps compiling; it only
/// ever leaves the mutex to be run by the single caller that took it out.
private struct PendingDisconnect: @unchecked Sendable {
  let run: Disconnect
}
