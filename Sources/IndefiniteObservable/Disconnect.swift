/// Connects an observer to a source of values and returns how to disconnect it again.
///
/// An ``IndefiniteObservable`` calls its connect closure once for every call to
/// ``IndefiniteObservable/subscribe(observer:)``, and never before.
public typealias Connect<O> = (O) -> Disconnect

/// Releases whatever a ``Connect`` closure set up for one observer.
///
/// A ``Subscription`` runs its disconnect on the first call to ``Subscription/unsubscribe()`` and
/// never again.
public typealias Disconnect = () -> Void

/// The shape of ``Subscription/unsubscribe()`` when it is passed around as a closure.
public typealias Unsubscribe = () -> Void

/// A disconnect that does nothing, for sources that need no tear-down.
///
/// ```swift
/// let observable = ValueObservable<Int> { observer in
///   observer.next(5)
///   return noopDisconnect
/// }
/// ```
// An empty closure has no state, so sharing it between threads cannot race.
nonisolated(unsafe) public let noopDisconnect: Disconnect = {}
