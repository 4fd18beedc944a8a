/// Receives the values of an ``IndefiniteObservable``.
///
/// An observer has one required channel, ``next``. Because an indefinite observable never
/// completes and never fails, there are no `complete` or `error` channels. A conforming type may
/// add channels of its own, such as a `state` channel beside `next`, and an observable written for
/// that type can use them.
///
/// ```swift
/// final class ValueObserver<T>: Observer {
///   typealias Value = T
///
///   init(_ next: @escaping (T) -> Void) {
///     self.next = next
///   }
///
///   let next: (T) -> Void
/// }
/// ```
public protocol Observer {
  /// The type of the values this observer receives.
  associatedtype Value

  /// Called once for every value the observable emits.
  var next: (Value) -> Void { get }
}
