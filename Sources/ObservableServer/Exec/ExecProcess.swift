import CLinux
import Glibc
import ObservablePOSIX

/// One running `/bin/sh -c COMMAND` child in a process group of its own, with its stdout and
/// stderr on non-blocking pipes.
///
/// The process group lets a stop reach everything the shell started, such as each command of
/// a pipeline, so nothing outlives its stream.
struct ExecProcess: Sendable {
  let pid: pid_t
  let stdout: Int32
  let stderr: Int32

  /// Starts `command` with stdin on `/dev/null`.
  static func spawn(_ command: String) throws(SystemError) -> ExecProcess {
    let output = try pipe()
    let errors: (read: Int32, write: Int32)
    do {
      errors = try pipe()
    } catch {
      Glibc.close(output.read)
      Glibc.close(output.write)
      throw error
    }
    defer {
      Glibc.close(output.write)
      Glibc.close(errors.write)
    }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_adddup2(&actions, output.write, 1)
    posix_spawn_file_actions_adddup2(&actions, errors.write, 2)

    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    // The server ignores SIGPIPE, SIGINT and SIGTERM to handle them itself; the child must not
    // inherit that.
    var defaults = sigset_t()
    sigemptyset(&defaults)
    for signal in [SIGPIPE, SIGINT, SIGTERM, SIGHUP, SIGCHLD] { sigaddset(&defaults, signal) }
    var noMask = sigset_t()
    sigemptyset(&noMask)
    posix_spawnattr_setsigdefault(&attributes, &defaults)
    posix_spawnattr_setsigmask(&attributes, &noMask)
    posix_spawnattr_setpgroup(&attributes, 0)
    posix_spawnattr_setflags(
      &attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))

    let arguments = ["/bin/sh", "-c", command].map { text in text.withCString { strdup($0) } }
    defer {
      for argument in arguments { free(argument) }
    }
    var pid: pid_t = 0
    let status = posix_spawn(&pid, "/bin/sh", &actions, &attributes, arguments + [nil], environ)
    guard status == 0 else {
      Glibc.close(output.read)
      Glibc.close(errors.read)
      throw SystemError(call: "posix_spawn(/bin/sh)", code: status)
    }
    return ExecProcess(pid: pid, stdout: output.read, stderr: errors.read)
  }

  /// Sends `signal` to the whole process group.
  func signalGroup(_ signal: Int32) {
    _ = kill(-pid, signal)
  }

  /// Reaps the process if it has exited; returns a description of how it ended, or `nil` when it
  /// is still running.
  func reap() -> String? {
    var status: Int32 = 0
    let result = waitpid(pid, &status, WNOHANG)
    if result == 0 { return nil }
    if result < 0 { return "gone (\(String(cString: strerror(errno))))" }
    // The shell's exit leaves its children in the group; make sure they go too.
    signalGroup(SIGKILL)
    let signal = status & 0x7F
    return signal == 0 ? "exited with status \((status >> 8) & 0xFF)" : "killed by signal \(signal)"
  }

  /// Opens a pidfd, readable once the process has exited, for an event loop to watch.
  ///
  /// The process is not reaped until ``reap()``, so its pid cannot be reused in between and the
  /// descriptor always refers to this child.
  func openExitDescriptor() throws(SystemError) -> Int32 {
    try blockingSyscall("pidfd_open") { observable_pidfd_open(pid) }
  }

  private static func pipe() throws(SystemError) -> (read: Int32, write: Int32) {
    var descriptors: [Int32] = [0, 0]
    _ = try blockingSyscall("pipe2") { observable_pipe_cloexec(&descriptors) }
    do {
      // Only the read end is the server's, and its loop must never block on it.
      let flags = try blockingSyscall("fcntl(F_GETFL)") { fcntl(descriptors[0], F_GETFL) }
      _ = try blockingSyscall("fcntl(F_SETFL)") {
        fcntl(descriptors[0], F_SETFL, flags | O_NONBLOCK)
      }
    } catch {
      Glibc.close(descriptors[0])
      Glibc.close(descriptors[1])
      throw error
    }
    return (descriptors[0], descriptors[1])
  }
}
