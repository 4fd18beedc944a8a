import Dispatch
import Locking

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
  public func started(_ server: ObservableServer) {
    notifier.notify("READY=1\nSTATUS=\(server.statusSummary)")
    notifier.startWatchdog(queue: queue) { ping in server.whenEventLoopsRespond(ping) }
    let notifier = self.notifier
    statusTimer.withLock { current in
      let timer = DispatchSource.makeTimerSource(queue: queue)
      let last = Locked("")
      timer.setEventHandler {
        let status = server.statusSummary
        let changed = last.withLock { previous in
          defer { previous = status }
          return previous != status
        }
        if changed { notifier.notify("STATUS=\(status)") }
      }
      timer.schedule(
        deadline: .now() + .seconds(2), repeating: .seconds(2), leeway: .milliseconds(200))
      timer.resume()
      current = timer
    }
  }

  /// Says the server is shutting down and stops the periodic messages.
  public func stopping() {
    statusTimer.withLock { current in
      current?.cancel()
      current = nil
    }
    notifier.stopWatchdog()
    notifier.notify("STOPPING=1\nSTATUS=shutting down")
  }

  private let notifier = SystemdNotifier()
  private let queue = DispatchQueue(label: "observable-server.systemd")
  private let statusTimer = Locked<(any DispatchSourceTimer)?>(nil)
}
