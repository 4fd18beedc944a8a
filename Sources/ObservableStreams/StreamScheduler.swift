/// The thread a stream source's background work runs on, and its timers: in the server, an
/// event loop.
///
/// Streams name this protocol rather than the event loop so that they stay above the kernel:
/// the module that owns the loop (`ObservableServer`) declares the conformance, and a test may
/// pass a scheduler of its own.
package protocol StreamScheduler: AnyObject, Sendable {
  /// Runs `task` on the scheduler's thread, soon; callable from any thread.
  func execute(_ task: @escaping @Sendable () -> Void)
  /// Runs `task` on the scheduler's thread once `delay` has passed, unless the returned timer
  /// is cancelled first. Call on the scheduler's thread only.
  func scheduleTimer(in delay: Duration, _ task: @escaping () -> Void) -> any StreamTimer
}

/// A task a ``StreamScheduler`` will run later.
package protocol StreamTimer {
  /// Forgets the task if it has not run yet. Call on its scheduler's thread only.
  func cancel()
}
