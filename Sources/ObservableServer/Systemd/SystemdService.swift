import Locking
import ObservablePOSIX

/// The server's side of running under systemd: the sockets it hands over, and the
/// notifications a `Type=notify` service sends (`READY=1`, `STATUS=`, `WATCHDOG=1`,
/// `STOPPING=1`).
///
/// libsystemd is loaded at run time, so all of this is a no-op on hosts without it, unless
/// systemd hands over sockets, which then fails loudly.
public final class SystemdService: Sendable {
  /// Creates the link; nothing is sent until ``started(_:)``.
  public init() {}

  /// The listening sockets systemd handed over, or `nil` when the process was not
  /// socket-activated. Call before starting anything that spawns processes.
  ///
  /// - Throws: An error whose description says what is wrong, when sockets were handed over
  ///   but cannot be served (libsystemd missing, not a listening stream socket).
  public static func takeListeners() throws -> [InheritedListener]? {
    try SocketActivation.takeSockets()
  }

  /// Says the server accepts connections, then keeps `STATUS=` current and, when systemd
  /// asks for it, pings the watchdog, each ping only after every event loop has answered.
  ///
  /// Both timers run on the server's first event loop, so they cost no thread of their own.
  public func started(_ server: ObservableServer) {
    notifier.notify("READY=1\nSTATUS=\(server.statusSummary)")
    guard let loop = server.eventLoops.first else { return }
    notifier.startWatchdog(on: loop) { ping in server.whenEventLoopsRespond(ping) }
    let notifier = self.notifier
    // Touched only by the timer's runs, one at a time on the loop; the lock makes that plain.
    let last = Locked("")
    let timer = RepeatingTimer(on: loop, every: .seconds(2), after: .seconds(2)) {
      let status = server.statusSummary
      let changed = last.withLock { previous in
        defer { previous = status }
        return previous != status
      }
      if changed { notifier.notify("STATUS=\(status)") }
    }
    let previous = statusTimer.withLock { current in
      defer { current = timer }
      return current
    }
    previous?.cancel()
    timer.start()
  }

  /// Says the server is shutting down and stops the periodic messages.
  public func stopping() {
    let current = statusTimer.withLock { current in
      defer { current = nil }
      return current
    }
    current?.cancel()
    notifier.stopWatchdog()
    notifier.notify("STOPPING=1\nSTATUS=shutting down")
  }

  private let notifier = SystemdNotifier()
  private let statusTimer = Locked<RepeatingTimer?>(nil)
}
