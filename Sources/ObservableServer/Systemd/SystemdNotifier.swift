import CSystemd
import Locking
import ObservablePOSIX

/// Reports the server's state to systemd for `Type=notify` services (`sd_notify(3)`).
///
/// Every call is a no-op when `NOTIFY_SOCKET` is unset (not started by systemd) or when
/// libsystemd.so.0 is missing, so the server can notify unconditionally.
///
/// `NOTIFY_SOCKET` is deliberately left in the environment because the watchdog keeps
/// needing it; `--exec` children inherit it, which is harmless with `NotifyAccess=main`.
final class SystemdNotifier: Sendable {
  /// The running watchdog timer, kept so it can be cancelled (and replaced on restart).
  private let watchdogTimer = Locked<RepeatingTimer?>(nil)

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
  /// The timer runs on `loop`, the server's first event loop, so a stuck loop stops the pings
  /// and systemd restarts the service; `whenAlive` may hold each ping back until the other
  /// parts of the server that could hang have shown they still run, by calling the closure it
  /// is given only then. Starting again replaces the previous timer.
  ///
  /// - Returns: `false` when the watchdog is not enabled and nothing was started.
  @discardableResult
  func startWatchdog(
    on loop: EventLoop,
    whenAlive: @escaping @Sendable (@escaping @Sendable () -> Void) -> Void = { $0() }
  ) -> Bool {
    guard let interval = watchdogInterval else { return false }
    // A static call keeps the timer from retaining the notifier, which owns the timer.
    let timer = RepeatingTimer(on: loop, every: interval / 2) {
      whenAlive { _ = Self.send("WATCHDOG=1") }
    }
    let previous = watchdogTimer.withLock { current in
      defer { current = timer }
      return current
    }
    previous?.cancel()
    timer.start()
    return true
  }

  /// Stops the keep-alive pings, e.g. once shutdown has begun.
  ///
  /// A ping already under way on the loop may still finish after this returns.
  func stopWatchdog() {
    let current = watchdogTimer.withLock { current in
      defer { current = nil }
      return current
    }
    current?.cancel()
  }

  private static func send(_ state: String) -> Bool {
    observable_sd_notify(0, state) > 0
  }
}
