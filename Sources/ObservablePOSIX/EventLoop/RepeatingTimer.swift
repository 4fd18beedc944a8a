import Locking

/// A task an event loop runs at a fixed interval until cancelled, for the server's own periodic
/// work (the systemd watchdog and status).
///
/// Unlike ``EventLoop/schedule(in:_:)``, it may be started and cancelled from any thread. Each
/// run schedules the next one on the loop, so a stuck loop runs none: the watchdog relies on it.
package final class RepeatingTimer: Sendable {
  /// Creates a timer that runs `body` on `loop` after `delay` and then every `interval`;
  /// nothing runs until ``start()``.
  package init(
    on loop: EventLoop, every interval: Duration, after delay: Duration = .zero,
    _ body: @escaping @Sendable () -> Void
  ) {
    self.loop = loop
    self.interval = interval
    self.delay = delay
    self.body = body
  }

  /// Starts the runs. Any thread.
  package func start() {
    loop.execute { [self] in scheduleRun(in: delay) }
  }

  /// Stops the runs; a run already under way on the loop may still finish. Any thread.
  package func cancel() {
    let pending = state.withLock { state in
      state.cancelled = true
      defer { state.pending = nil }
      return state.pending
    }
    guard let pending else { return }
    let loop = loop
    loop.execute { loop.cancel(pending) }
  }

  /// Loop thread only.
  private func scheduleRun(in wait: Duration) {
    state.withLock { timer in
      // Checked in the same lock as the timer is stored, so a cancel cannot miss it.
      guard !timer.cancelled else { return }
      timer.pending = loop.schedule(in: wait) { [self] in
        guard state.withLock({ !$0.cancelled }) else { return }
        body()
        scheduleRun(in: interval)
      }
    }
  }

  private let loop: EventLoop
  private let interval: Duration
  private let delay: Duration
  private let body: @Sendable () -> Void
  private let state = Locked(RepeatingTimerState())
}

/// Whether a repeating timer was cancelled, and its next run.
private struct RepeatingTimerState {
  var cancelled = false
  var pending: LoopTimer?
}
