import Foundation
import Glibc
import Synchronization

/// Makes sure no process the benchmark started outlives it, however the benchmark ends.
///
/// Normal ends stop the server in ``ServerUnderTest/stop()``. This covers the rest: Ctrl-C,
/// SIGTERM and SIGHUP (a handler kills the child, then exits), a run stuck past its timeout (a
/// watchdog thread does the same), and the benchmark being killed outright (the server runs
/// under `setpriv --pdeathsig KILL`, so the kernel kills it when the benchmark dies).
enum ChildProcessGuard {
  /// Installs the signal handlers and a watchdog that ends everything `seconds` from now.
  static func install(hardLimitSeconds seconds: Double) {
    // Initialised here, because a signal handler must not be the first to touch it.
    child.store(0, ordering: .sequentiallyConsistent)
    for number in [SIGINT, SIGTERM, SIGHUP] {
      signal(number) { number in
        let pid = ChildProcessGuard.child.load(ordering: .sequentiallyConsistent)
        if pid > 0 { kill(pid, SIGKILL) }
        _exit(128 + number)
      }
    }
    let end = MonotonicTime.now() + UInt64(seconds * 1e9)
    Thread.detachNewThread {
      MonotonicTime.sleep(until: end)
      let message = "observable-bench: still running past --timeout; stopping everything\n"
      _ = message.withCString { write(2, $0, strlen($0)) }
      let pid = ChildProcessGuard.child.load(ordering: .sequentiallyConsistent)
      if pid > 0 { kill(pid, SIGKILL) }
      _exit(3)
    }
  }

  /// Records the child to kill if the benchmark ends abnormally.
  static func watch(_ pid: pid_t) {
    child.store(pid, ordering: .sequentiallyConsistent)
  }

  /// Forgets `pid` once it has been reaped, so that a recycled PID is never killed.
  static func forget(_ pid: pid_t) {
    _ = child.compareExchange(expected: pid, desired: 0, ordering: .sequentiallyConsistent)
  }

  /// The one child alive at a time (0 when none); an atomic, because signal handlers read it.
  private static let child = Atomic<pid_t>(0)
}
