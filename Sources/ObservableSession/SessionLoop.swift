/// The thread a session lives on, as the session sees it: where an answer that comes later
/// from another thread (the cluster's) goes back to, and where ended subscriptions are
/// disconnected a slice per turn.
///
/// The event loop implements it (in `ObservableTransport`), so the session imports no loop
/// and no system call.
package protocol SessionLoop: AnyObject, Sendable {
  /// Runs `task` on the loop thread, soon; tasks run in the order they were given.
  func execute(_ task: @escaping @Sendable () -> Void)
}
