import Glibc

/// Turns SIGINT and SIGTERM into one orderly shutdown, run by the main thread, and SIGHUP into
/// a reload of the TLS certificate and the authorization file (as nats-server and nginx read SIGHUP: `systemctl reload`
/// must never end the service).
///
/// A handler writes the signal's number to a pipe that the main thread reads. Whichever thread
/// the kernel picks runs the handler, so no signal is lost to a thread's mask, and nothing
/// that is not async-signal-safe runs in signal context. (A Dispatch signal source, armed
/// asynchronously, missed signals sent right after the server said it was listening.)
enum ShutdownSignals {
  /// Installs the handler; call it before the server announces itself.
  static func install() {
    var ends: [Int32] = [0, 0]
    guard pipe(&ends) == 0 else { fatalError("pipe for shutdown signals: errno \(errno)") }
    for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
    readEnd = ends[0]
    writeEnd = ends[1]
    for number in [SIGINT, SIGTERM, SIGHUP] {
      var action = sigaction()
      action.__sigaction_handler.sa_handler = { number in
        var byte = UInt8(truncatingIfNeeded: number)
        _ = write(ShutdownSignals.writeEnd, &byte, 1)
      }
      action.sa_flags = SA_RESTART
      sigemptyset(&action.sa_mask)
      sigaction(number, &action, nil)
    }
    // A parent may have started us with the signals blocked (a test runner's threads do);
    // threads made from here on inherit the main thread's mask.
    var signals = sigset_t()
    sigemptyset(&signals)
    sigaddset(&signals, SIGINT)
    sigaddset(&signals, SIGTERM)
    sigaddset(&signals, SIGHUP)
    pthread_sigmask(SIG_UNBLOCK, &signals, nil)
  }

  /// Blocks until SIGINT, SIGTERM or SIGHUP arrives and returns its name.
  static func wait() -> String {
    var byte: UInt8 = 0
    while read(readEnd, &byte, 1) != 1 {}
    switch Int32(byte) {
    case SIGINT: return "SIGINT"
    case SIGHUP: return "SIGHUP"
    default: return "SIGTERM"
    }
  }

  // Set once in `install()`, before any signal can arrive, and only read afterwards, by the
  // handler and by `wait()`.
  nonisolated(unsafe) private static var readEnd: Int32 = -1
  nonisolated(unsafe) fileprivate static var writeEnd: Int32 = -1
}
