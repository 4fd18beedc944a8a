import Locking
import Logging

/// Logs failed authentications at a bounded rate, so a client trying tokens in a loop cannot
/// fill the log: at most ``perSecond`` lines a second, then one line that counts the rest.
final class AuthenticationFailures: Sendable {
  /// How many failures a second are logged one by one.
  static let perSecond = 5

  init(logger: Logger) {
    self.logger = logger
  }

  /// Records a failure from `peer`; logs it unless this second's lines are used up.
  func record(peer: String) {
    let now = ContinuousClock.now
    let (log, suppressed) = window.withLock { window -> (Bool, Int) in
      var suppressed = 0
      if now - window.start >= .seconds(1) {
        suppressed = window.suppressed
        window = Window(start: now)
      }
      window.logged += 1
      guard window.logged <= Self.perSecond else {
        window.suppressed += 1
        return (false, suppressed)
      }
      return (true, suppressed)
    }
    if suppressed > 0 {
      logger.warning("authentication failures not logged", metadata: ["count": "\(suppressed)"])
    }
    if log { logger.warning("authentication failed", metadata: ["peer": "\(peer)"]) }
  }

  private let logger: Logger
  private let window = Locked(Window(start: .now))
}

/// One second's failures.
private struct Window {
  var start: ContinuousClock.Instant
  var logged = 0
  var suppressed = 0
}
