import Glibc
import ObservablePOSIX

/// SIGHUP, handed to a thread of its own: the handler only writes a byte to a pipe (nothing
/// else is async-signal-safe), and the thread reads it and does the reload.
///
/// One handler per process: a second ``watch(_:)`` replaces the action that runs.
enum HangupSignal {
  /// Runs `reload` on the watching thread after each SIGHUP.
  static func watch(_ reload: @escaping @Sendable () -> Void) throws(SystemError) {
    var ends: [Int32] = [0, 0]
    guard pipe(&ends) == 0 else { throw SystemError(call: "pipe", code: errno) }
    for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
    let readEnd = ends[0]
    writeEnd = ends[1]
    var action = sigaction()
    action.__sigaction_handler.sa_handler = { _ in
      var byte: UInt8 = 1
      _ = write(HangupSignal.writeEnd, &byte, 1)
    }
    action.sa_flags = SA_RESTART
    sigemptyset(&action.sa_mask)
    sigaction(SIGHUP, &action, nil)
    var signals = sigset_t()
    sigemptyset(&signals)
    sigaddset(&signals, SIGHUP)
    pthread_sigmask(SIG_UNBLOCK, &signals, nil)
    try LoopThread.start(name: "observable-hup") {
      var byte: UInt8 = 0
      while true {
        let count = read(readEnd, &byte, 1)
        if count == 1 {
          reload()
        } else if count == 0 || errno != EINTR {
          return
        }
      }
    }.detach()
  }

  // Set in `watch` before the handler is installed, and only read afterwards.
  nonisolated(unsafe) fileprivate static var writeEnd: Int32 = -1
}
