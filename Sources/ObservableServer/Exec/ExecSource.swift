import Dispatch
import Glibc
import Locking
import Logging

/// Runs an exec stream's command while the stream has observers and hands its output lines to
/// them.
///
/// Observers come and go on connection threads; every process action (start, stop, restart,
/// reading, reaping) happens on one serial queue, which makes each decision against the current
/// number of observers, so rapid subscribe and unsubscribe cannot leave a process behind.
final class ExecSource: StreamSource {
  init(name: String, command: String, gracePeriod: Duration, maxLineBytes: Int, logger: Logger) {
    self.name = name
    self.command = command
    self.gracePeriod = gracePeriod
    self.maxLineBytes = maxLineBytes
    self.logger = logger
    queue = DispatchQueue(label: "observable-server.exec.\(name)")
  }

  let name: String
  let kind = StreamKind.exec

  /// Exec sources run their processes from a queue of their own for now.
  func start(on loop: EventLoop) {}

  /// Adds an observer, starting the command for the first one.
  func attach(_ observer: StreamObserver, key: UInt64) {
    observers.withLock { $0.insert(observer, key: key) }
    queue.async { self.reconcile() }
  }

  /// Removes an observer, stopping the command after the last one.
  func detach(key: UInt64) {
    _ = observers.withLock { $0.remove(key: key) }
    queue.async { self.reconcile() }
  }

  var observerCount: Int { observers.withLock { $0.count } }

  /// Stops the command for good and waits until it has been reaped, up to the grace period and
  /// a little more.
  func shutdown() {
    queue.sync {
      run.withLock { $0.shutDown = true }
      reconcile()
    }
    let deadline = ContinuousClock.now + gracePeriod + .milliseconds(500)
    while ContinuousClock.now < deadline, run.withLock({ $0.process != nil }) {
      usleep(5_000)
    }
  }

  // MARK: On `queue`

  private func reconcile() {
    let wanted = observerCount > 0 && !run.withLock { $0.shutDown }
    let current = run.withLock { $0 }
    if wanted, current.process == nil, !current.restartScheduled {
      start()
    } else if !wanted, let process = current.process, !current.stopping {
      stop(process)
    }
  }

  private func start() {
    let process: ExecProcess
    do {
      process = try ExecProcess.spawn(command)
    } catch {
      logger.error("exec failed to start", metadata: ["stream": "\(name)", "error": "\(error)"])
      scheduleRestart()
      return
    }
    logger.info("exec started", metadata: ["stream": "\(name)", "pid": "\(process.pid)"])
    let output = ExecOutput(
      process: process, maxLineBytes: maxLineBytes,
      onLine: { [self] line in deliver(line) },
      onErrorLine: { [self] line in
        logger.warning("exec stderr", metadata: ["stream": "\(name)", "line": "\(line)"])
      },
      onEnd: { [self] in queue.async { self.awaitExit(process) } })
    run.withLock {
      $0.process = process
      $0.output = output
      $0.startedAt = .now
      $0.stopping = false
    }
    output.start()
  }

  private func deliver(_ text: UnsafeRawBufferPointer) {
    let line = DeliveryEncoder.line(stream: name, text: text)
    observers.withLock { $0.deliver(line) }
  }

  private func stop(_ process: ExecProcess) {
    logger.info("exec stopping", metadata: ["stream": "\(name)", "pid": "\(process.pid)"])
    let output = run.withLock {
      $0.stopping = true
      return $0.output
    }
    output?.cancel()
    process.signalGroup(SIGTERM)
    awaitExit(process, killAt: .now + gracePeriod)
  }

  /// Polls for the exit, since Linux Dispatch has no process sources; escalates to `SIGKILL`
  /// once the grace period has passed.
  private func awaitExit(_ process: ExecProcess, killAt: ContinuousClock.Instant? = nil) {
    // Output ending and a stop can both start polling; only the first still finds the process.
    guard run.withLock({ $0.process?.pid == process.pid }) else { return }
    if let ending = process.reap() {
      exited(process, ending)
      return
    }
    var killAt = killAt
    if let deadline = killAt, ContinuousClock.now >= deadline {
      logger.warning(
        "exec ignored SIGTERM; killing", metadata: ["stream": "\(name)", "pid": "\(process.pid)"])
      process.signalGroup(SIGKILL)
      killAt = nil
    }
    let nextKillAt = killAt
    queue.asyncAfter(deadline: .now() + .milliseconds(10)) { [self] in
      awaitExit(process, killAt: nextKillAt)
    }
  }

  private func exited(_ process: ExecProcess, _ ending: String) {
    let previous = run.withLock { state -> ExecRunState in
      let previous = state
      state.process = nil
      state.output = nil
      state.stopping = false
      return previous
    }
    previous.output?.cancel()
    guard !previous.stopping else {
      // Stopped because nobody observed it: the next observer gets a prompt start.
      run.withLock { $0.restartDelay = .milliseconds(100) }
      logger.info(
        "exec stopped",
        metadata: ["stream": "\(name)", "pid": "\(process.pid)", "how": "\(ending)"])
      reconcile()
      return
    }
    logger.warning(
      "exec ended while observed",
      metadata: ["stream": "\(name)", "pid": "\(process.pid)", "how": "\(ending)"])
    // A process that ran a while earns a quick restart; one that keeps dying waits longer.
    if let started = previous.startedAt, ContinuousClock.now - started > .seconds(10) {
      run.withLock { $0.restartDelay = .milliseconds(100) }
    }
    scheduleRestart()
  }

  private func scheduleRestart() {
    let delay = run.withLock { state -> Duration in
      let delay = state.restartDelay
      state.restartDelay = min(delay * 2, .seconds(30))
      state.restartScheduled = true
      return delay
    }
    guard observerCount > 0 else {
      run.withLock { $0.restartScheduled = false }
      return
    }
    logger.info("exec restarting", metadata: ["stream": "\(name)", "delay": "\(delay)"])
    let nanoseconds =
      delay.components.seconds * 1_000_000_000 + delay.components.attoseconds / 1_000_000_000
    queue.asyncAfter(deadline: .now() + .nanoseconds(Int(nanoseconds))) { [self] in
      run.withLock { $0.restartScheduled = false }
      reconcile()
    }
  }

  private let command: String
  private let gracePeriod: Duration
  private let maxLineBytes: Int
  private let logger: Logger
  private let queue: DispatchQueue
  private let observers = Locked(ObserverSet())
  private let run = Locked(ExecRunState())
}

/// What an ``ExecSource`` is running now.
private struct ExecRunState {
  var process: ExecProcess?
  var output: ExecOutput?
  var startedAt: ContinuousClock.Instant?
  var stopping = false
  var restartScheduled = false
  var restartDelay: Duration = .milliseconds(100)
  var shutDown = false
}
