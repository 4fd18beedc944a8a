import Locking
import Logging
import ObservablePOSIX

/// Logs warnings that clients can cause in a loop (refused connections, slow consumers, failed
/// retains, wrong tokens, forbidden requests) at a bounded rate, so that a flood of them cannot
/// flood the log. Each kind logs at its own ``RepeatedWarning/level``.
///
/// Each kind has windows of one second: the first ``perSecond`` warnings of a window are
/// logged as they come, the rest are counted, and once the window is over one line says how
/// many of that kind were not logged. Once the server's loops run (``reportOn(_:)``), the count
/// goes out when the window ends even if no warning follows, so a burst is never left
/// unreported; the timer is the loop's own, so it costs no thread and no descriptor.
package final class RepeatedWarnings: Sendable {
  /// How many warnings of one kind a window logs one by one.
  static let perSecond = 5

  /// Warnings that log to `logger`, in windows of `window` (one second but in tests).
  package init(logger: Logger, window: Duration = .seconds(1)) {
    self.logger = logger
    self.window = window
  }

  /// Reports each window's count when it ends through a timer on `loop`; until this is called
  /// a count waits for the next warning of its kind.
  package func reportOn(_ loop: EventLoop) {
    self.loop.withLock { $0 = loop }
  }

  /// Logs `message` as a warning of `kind`, unless this window's lines for `kind` are used up;
  /// then it is counted instead. A kind whose level the logger leaves out costs nothing more.
  package func warn(
    _ kind: RepeatedWarning, _ message: Logger.Message, metadata: Logger.Metadata = [:]
  ) {
    guard logger.logLevel <= kind.level else { return }
    let now = ContinuousClock.now
    let window = window
    let (log, ended, flushAt) = windows.withLock {
      windows -> (Bool, Int, ContinuousClock.Instant?) in
      var current = windows[kind] ?? Window(start: now)
      var ended = 0
      if now - current.start >= window {
        // The previous window's count, unless its flush has already reported it.
        ended = current.suppressed
        current = Window(start: now)
      }
      defer { windows[kind] = current }
      guard current.logged >= Self.perSecond else {
        current.logged += 1
        return (true, ended, nil)
      }
      current.suppressed += 1
      // The first warning held back in a window arranges for the count to go out at its end.
      guard current.suppressed == 1 else { return (false, ended, nil) }
      return (false, ended, current.start)
    }
    if ended > 0 { reportSuppressed(kind, ended) }
    if log { logger.log(level: kind.level, message, metadata: metadata) }
    if let flushAt { scheduleFlush(kind, windowStart: flushAt) }
  }

  /// Reports the count of `kind`'s window that began at `windowStart` once it is over, unless a
  /// later warning has already started a new window (and reported the count itself).
  private func scheduleFlush(_ kind: RepeatedWarning, windowStart: ContinuousClock.Instant) {
    guard let loop = loop.withLock({ $0 }) else { return }
    let end = windowStart + window
    loop.execute { [self] in
      // A millisecond late, so that the window is surely over when the timer runs.
      loop.schedule(in: max(end - .now, .zero) + .milliseconds(1)) { [self] in
        let count = windows.withLock { windows -> Int in
          guard var current = windows[kind], current.start == windowStart else { return 0 }
          let count = current.suppressed
          current.suppressed = 0
          windows[kind] = current
          return count
        }
        if count > 0 { reportSuppressed(kind, count) }
      }
    }
  }

  private func reportSuppressed(_ kind: RepeatedWarning, _ count: Int) {
    logger.log(
      level: kind.level, "warnings not logged",
      metadata: ["kind": "\(kind.rawValue)", "count": "\(count)"])
  }

  private let logger: Logger
  private let window: Duration
  private let windows = Locked<[RepeatedWarning: Window]>([:])
  private let loop = Locked<EventLoop?>(nil)
}

/// One window of one kind of warning.
private struct Window {
  /// When the window began: at the first warning after the previous one ended.
  var start: ContinuousClock.Instant
  /// Warnings logged in it so far.
  var logged = 0
  /// Warnings counted instead of logged, and not yet reported.
  var suppressed = 0
}
