import Glibc
import Logging
import ObservablePOSIX

/// Runs one exec stream's command on an event loop while the stream is observed: starts it,
/// stops it (`SIGTERM`, then `SIGKILL` after the grace period), restarts it with back-off when
/// it ends by itself, and ends it for good at shutdown.
///
/// Every decision is taken on the loop thread against the observer count of that moment, so
/// any sequence of subscribes and unsubscribes from other threads ends with a process running
/// exactly when someone observes the stream.
final class ExecSupervisor: @unchecked Sendable {
  // Unchecked: every member is used on `loop`'s thread only; other threads reach this object
  // only through `reconcileSoon()` and `shutDownSoon(then:)`, which hand the work to the loop.

  /// What the supervised command needs to know about its stream.
  struct Stream {
    let name: String
    let command: String
    let gracePeriod: Duration
    let maxLineBytes: Int
    /// Whether anyone observes the stream now; called on the loop thread.
    let isObserved: @Sendable () -> Bool
    /// Hands one stdout line to the observers; called on the loop thread.
    let deliver: @Sendable (UnsafeRawBufferPointer) -> Void
  }

  /// Creates a supervisor that runs `stream`'s command on `loop`; nothing starts until
  /// ``reconcileSoon()``. `exitWatch` picks how exits are seen, so tests can force polling.
  init(stream: Stream, loop: EventLoop, logger: Logger, exitWatch: ExecExitWatch.Mode = .pidfd) {
    self.stream = stream
    self.loop = loop
    self.logger = logger
    self.exitWatch = exitWatch
  }

  /// Brings the process in line with the observer count, soon, on the loop. Any thread.
  func reconcileSoon() {
    loop.execute { [self] in reconcile() }
  }

  /// Stops the process for good; `then` runs on the loop once no process is left. Any thread.
  func shutDownSoon(then done: @escaping @Sendable () -> Void) {
    loop.execute { [self] in
      isShutDown = true
      if let restart {
        loop.cancel(restart)
        self.restart = nil
      }
      reconcile()
      if current == nil { done() } else { whenStopped.append(done) }
    }
  }

  // MARK: Loop thread

  private func reconcile() {
    loop.assertInLoop()
    let wanted = !isShutDown && stream.isObserved()
    if wanted, current == nil, restart == nil {
      start()
    } else if !wanted, let running = current, running.killTimer == nil {
      stop(running)
    }
  }

  private func start() {
    loop.assertInLoop()
    let process: ExecProcess
    do {
      process = try ExecProcess.spawn(stream.command)
    } catch {
      logger.error(
        "exec failed to start", metadata: ["stream": "\(stream.name)", "error": "\(error)"])
      scheduleRestart()
      return
    }
    logger.info("exec started", metadata: ["stream": "\(stream.name)", "pid": "\(process.pid)"])
    let running = ExecRun(process: process, startedAt: .now)
    let deliver = stream.deliver
    let limit = stream.maxLineBytes
    running.output = ExecOutput(
      fd: process.stdout, loop: loop, maxLineBytes: limit,
      onEvent: { [self] event in
        switch event {
        case .line(let line): deliver(line)
        case .tooLong: logStderr("(a stdout line over \(limit) bytes was skipped)")
        }
      },
      // The process may run on without its stdout; its exit is what the watch waits for.
      onEnd: { [weak running] in running?.output = nil })
    running.errors = ExecOutput(
      fd: process.stderr, loop: loop, maxLineBytes: 4096,
      onEvent: { [self] event in
        if case .line(let line) = event { logStderr(String(decoding: line, as: UTF8.self)) }
      },
      onEnd: { [weak running] in running?.errors = nil })
    running.exit = ExecExitWatch(process: process, loop: loop) { [self, weak running] ending in
      if let running { exited(running, ending) }
    }
    current = running
    do {
      try running.output?.open()
      try running.errors?.open()
    } catch {
      // Only a broken epoll fails here; without output the process is of no use.
      logger.error(
        "exec output unreadable", metadata: ["stream": "\(stream.name)", "error": "\(error)"])
      running.closeOutput()
      process.signalGroup(SIGKILL)
    }
    let watching = running.exit?.start(exitWatch)
    if watching == .polling, exitWatch == .pidfd, !reportedPolling {
      reportedPolling = true
      logger.notice(
        "exec exits polled every 10 ms: pidfd_open failed",
        metadata: ["stream": "\(stream.name)"])
    }
  }

  private func logStderr(_ line: String) {
    logger.warning("exec stderr", metadata: ["stream": "\(stream.name)", "line": "\(line)"])
  }

  private func stop(_ running: ExecRun) {
    loop.assertInLoop()
    let pid = running.process.pid
    logger.info("exec stopping", metadata: ["stream": "\(stream.name)", "pid": "\(pid)"])
    // Nobody wants the output any more; a process still writing gets SIGPIPE.
    running.closeOutput()
    running.process.signalGroup(SIGTERM)
    running.killTimer = loop.schedule(in: stream.gracePeriod) { [self] in
      logger.warning(
        "exec ignored SIGTERM; killing", metadata: ["stream": "\(stream.name)", "pid": "\(pid)"])
      running.process.signalGroup(SIGKILL)
    }
  }

  private func exited(_ running: ExecRun, _ ending: String) {
    loop.assertInLoop()
    let metadata: Logger.Metadata = [
      "stream": "\(stream.name)", "pid": "\(running.process.pid)", "how": "\(ending)",
    ]
    let stopping = running.killTimer != nil
    if let timer = running.killTimer { loop.cancel(timer) }
    // The last lines may still be in the pipe when the exit is seen first.
    if !stopping {
      running.output?.drain()
      running.errors?.drain()
    }
    running.closeOutput()
    running.exit = nil
    current = nil
    if stopping {
      // Stopped because nobody observed it: the next observer gets a prompt start.
      restartDelay = .milliseconds(100)
      logger.info("exec stopped", metadata: metadata)
    } else {
      logger.warning("exec ended while observed", metadata: metadata)
      // A process that ran a while earns a quick restart; one that keeps dying waits longer.
      if ContinuousClock.now - running.startedAt > .seconds(10) {
        restartDelay = .milliseconds(100)
      }
      scheduleRestart()
    }
    if isShutDown {
      for done in whenStopped { done() }
      whenStopped = []
    } else {
      reconcile()
    }
  }

  private func scheduleRestart() {
    loop.assertInLoop()
    let delay = restartDelay
    restartDelay = min(delay * 2, .seconds(30))
    guard !isShutDown, stream.isObserved() else { return }
    logger.info("exec restarting", metadata: ["stream": "\(stream.name)", "delay": "\(delay)"])
    restart = loop.schedule(in: delay) { [self] in
      restart = nil
      reconcile()
    }
  }

  private let stream: Stream
  private let loop: EventLoop
  private let logger: Logger
  private let exitWatch: ExecExitWatch.Mode
  private var current: ExecRun?
  private var restart: LoopTimer?
  private var restartDelay: Duration = .milliseconds(100)
  private var isShutDown = false
  private var reportedPolling = false
  private var whenStopped: [@Sendable () -> Void] = []
}

/// One started process and what watches it. Loop thread only, like its supervisor.
private final class ExecRun {
  let process: ExecProcess
  let startedAt: ContinuousClock.Instant
  var output: ExecOutput?
  var errors: ExecOutput?
  var exit: ExecExitWatch?
  /// Set once the process has been asked to stop: the `SIGKILL` to send after the grace period.
  var killTimer: LoopTimer?

  init(process: ExecProcess, startedAt: ContinuousClock.Instant) {
    self.process = process
    self.startedAt = startedAt
  }

  func closeOutput() {
    output?.close()
    output = nil
    errors?.close()
    errors = nil
  }
}
