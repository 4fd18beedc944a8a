import CSystemd
import Dispatch
import Locking

/// Reports the server's state to systemd for `Type=notify` services (`sd_notify(3)`).
///
/// Every call is a no-op when `NOTIFY_SOCKET` is unset (not started by systemd) or when
/// libsystemd.so.0 is missing, so the server can notify unconditionally.
///
/// `NOTIFY_SOCKET` is deliberately left in the environment because the watchdog keeps
/// needing it; `--exec` children inherit it, which is harmless with `NotifyAccess=main`.
final class SystemdNotifier: Sendable {
  /// The running watchdog timer, kept so it can be cancelled (and replaced on restart).
  private let watchdogTimer = Locked<(any DispatchSourceTimer)?>(nil)

  init() {}

  deinit {
    stopWatchdog()
  }

  /// Sends `state`, e.g. `READY=1`, `STATUS=serving 3 streams`, `STOPPING=1`, `WATCHDOG=1`;
  /// several assignments may be joined with newlines.
  ///
  /// - Returns: `true` when the message was delivered to the service manager.
  @discardableResult
  func notify(_ state: String) -> Bool {
    Self.send(state)
  }

  /// How often systemd expects a keep-alive (`WatchdogSec=`), or `nil` when the watchdog is
  /// off for this process (unset, addressed to another PID, or libsystemd missing).
  var watchdogInterval: Duration? {
    var microseconds: UInt64 = 0
    guard observable_sd_watchdog_enabled(0, &microseconds) > 0, microseconds > 0 else {
      return nil
    }
    return .microseconds(microseconds)
  }

  /// Sends `WATCHDOG=1` at half of ``watchdogInterval``, as sd_watchdog_enabled(3) advises,
  /// so one late ping does not get the service killed.
  ///
  /// The timer runs on `queue`, which should be one whose stalls mean the server is stuck
  /// (the event loop's queue), so that a hang stops the pings and systemd restarts it.
  /// Starting again replaces the previous timer.
  ///
  /// - Returns: `false` when the watchdog is not enabled and nothing was started.
  /// `whenAlive` may hold each ping back until the parts of the server that could hang have
  /// shown they still run, by calling the closure it is given only then.
  @discardableResult
  func startWatchdog(
    queue: DispatchQueue,
    whenAlive: @escaping @Sendable (@escaping @Sendable () -> Void) -> Void = { $0() }
  ) -> Bool {
    guard let interval = watchdogInterval else { return false }
    let period = Self.nanoseconds(of: interval / 2)
    // The timer is created and driven inside the lock: Dispatch sources are not Sendable, so
    // they never leave the mutex's protection. cancel() and resume() do not block.
    watchdogTimer.withLock { current in
      current?.cancel()
      let timer = DispatchSource.makeTimerSource(queue: queue)
      timer.schedule(
        deadline: .now(), repeating: .nanoseconds(period), leeway: .nanoseconds(period / 10))
      // A static call keeps the handler from retaining the notifier, which owns the timer.
      timer.setEventHandler { whenAlive { _ = Self.send("WATCHDOG=1") } }
      timer.resume()
      current = timer
    }
    return true
  }

  /// Stops the keep-alive pings, e.g. once shutdown has begun.
  ///
  /// A ping already running on the timer's queue may still finish after this returns.
  func stopWatchdog() {
    watchdogTimer.withLock { current in
      current?.cancel()
      current = nil
    }
  }

  private static func send(_ state: String) -> Bool {
    observable_sd_notify(0, state) > 0
  }

  /// Converts for Dispatch, which counts whole nanoseconds; clamped so a huge
  /// `WatchdogSec=` cannot overflow.
  private static func nanoseconds(of duration: Duration) -> Int {
    let (seconds, attoseconds) = duration.components
    let (whole, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
    guard !overflow else { return Int.max }
    return Int(clamping: whole + attoseconds / 1_000_000_000)
  }
}
