import Dispatch
import Locking
import Logging
import ObservablePOSIX
import ObservableStreams
import ObservableWire

/// A stream whose values are the output lines of a command, run while the stream has
/// observers.
///
/// Observers come and go on connection threads; this type only keeps them and passes the work
/// to an ``ExecSupervisor`` on the event loop given to ``start(on:)``, which starts, stops and
/// restarts the process there.
final class ExecSource: StreamSource {
  /// Creates a source for `command`; nothing runs until ``start(on:)`` and a first observer.
  init(
    name: String, command: String, gracePeriod: Duration, maxLineBytes: Int, logger: Logger,
    exitWatch: ExecExitWatch.Mode = .pidfd
  ) {
    self.name = name
    self.command = command
    self.gracePeriod = gracePeriod
    self.maxLineBytes = maxLineBytes
    self.logger = logger
    self.exitWatch = exitWatch
  }

  let name: String
  let kind = StreamKind.exec

  /// Runs the command's process from `scheduler`, which is an event loop: the supervisor
  /// watches the process's descriptors there, which no other ``StreamScheduler`` can do.
  func start(on scheduler: any StreamScheduler) {
    guard let loop = scheduler as? EventLoop else {
      preconditionFailure("an exec stream runs on an event loop, not on \(type(of: scheduler))")
    }
    start(on: loop)
  }

  /// Runs the command's process from `loop` from now on.
  func start(on loop: EventLoop) {
    let stream = ExecSupervisor.Stream(
      name: name, command: command, gracePeriod: gracePeriod, maxLineBytes: maxLineBytes,
      isObserved: { [weak self] in (self?.observerCount ?? 0) > 0 },
      deliver: { [weak self] text in self?.deliver(text) })
    let supervisor = ExecSupervisor(
      stream: stream, loop: loop, logger: logger, exitWatch: exitWatch)
    state.withLock { $0.supervisor = supervisor }
    supervisor.reconcileSoon()
  }

  /// Adds an observer, starting the command for the first one.
  func attach(_ observer: StreamObserver, key: UInt64) {
    let supervisor = state.withLock { state in
      state.observers.insert(observer, key: key)
      return state.supervisor
    }
    supervisor?.reconcileSoon()
  }

  /// Removes an observer, stopping the command after the last one.
  func detach(key: UInt64) {
    let supervisor = state.withLock { state in
      state.observers.remove(key: key)
      return state.supervisor
    }
    supervisor?.reconcileSoon()
  }

  var observerCount: Int { state.withLock { $0.observers.count } }

  /// Stops the command for good and waits until it has been reaped, up to the grace period and
  /// a little more. Call from a thread other than the loop's, while the loop still runs.
  func shutdown() {
    guard let supervisor = state.withLock({ $0.supervisor }) else { return }
    let stopped = DispatchSemaphore(value: 0)
    supervisor.shutDownSoon { stopped.signal() }
    let (seconds, attoseconds) = gracePeriod.components
    // In floating-point seconds, which no configured grace period can overflow.
    _ = stopped.wait(timeout: .now() + Double(seconds) + Double(attoseconds) / 1e18 + 0.5)
  }

  private func deliver(_ text: UnsafeRawBufferPointer) {
    let line = DeliveryEncoder.line(stream: name, text: text)
    state.withLock { $0.observers.deliver(line) }
  }

  private let command: String
  private let gracePeriod: Duration
  private let maxLineBytes: Int
  private let logger: Logger
  private let exitWatch: ExecExitWatch.Mode
  private let state = Locked(ExecSourceState())
}

/// An exec source's observers and, once started, the supervisor of its process.
private struct ExecSourceState {
  var observers = ObserverSet()
  var supervisor: ExecSupervisor?
}
