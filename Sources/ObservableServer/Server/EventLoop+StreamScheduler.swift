import ObservablePOSIX
import ObservableStreams

/// The event loop is where the streams' periodic sources tick and exec streams run their
/// processes; the streams layer names only ``StreamScheduler``, so it needs no POSIX.
extension EventLoop: StreamScheduler {
  package func scheduleTimer(in delay: Duration, _ task: @escaping () -> Void) -> any StreamTimer {
    EventLoopTimer(loop: self, timer: schedule(in: delay, task))
  }
}

/// A task on an event loop's timer queue, cancelled through its loop.
private struct EventLoopTimer: StreamTimer {
  let loop: EventLoop
  let timer: LoopTimer

  func cancel() { loop.cancel(timer) }
}
