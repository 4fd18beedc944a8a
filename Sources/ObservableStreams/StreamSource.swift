import ObservableWire

/// What produces the values of a read-only stream: the built-in `clock` and `stats`, and
/// `--exec` commands.
///
/// The registry wraps each source in a ``NamedStream``, which counts subscriptions; the source
/// only keeps its observers and hands them encoded lines from whatever thread produces them.
package protocol StreamSource: AnyObject, Sendable {
  /// The name clients subscribe to.
  var name: String { get }
  /// What produces the values, as `list` shows it.
  var kind: StreamKind { get }
  /// How many observers are attached now.
  var observerCount: Int { get }
  /// Adds an observer under a key unique in the process; it gets values from now on.
  func attach(_ observer: StreamObserver, key: UInt64)
  /// Removes the observer added under `key`.
  func detach(key: UInt64)
  /// Starts whatever the source runs in the background, on `scheduler`.
  func start(on scheduler: any StreamScheduler)
  /// Ends whatever the source runs in the background, at server shutdown.
  func shutdown()
}
