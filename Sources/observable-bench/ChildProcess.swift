import Glibc

/// Starting and reaping the processes the benchmark runs: the server and, when needed, the
/// `swift build` that makes it.
enum ChildProcess {
  /// Starts `arguments[0]` (looked up in PATH when `searchPath`), with its standard output sent
  /// to standard error so that `--json` output stays one object; both go to `logPath` instead
  /// when one is given, for a scenario that reads the server's log afterwards.
  static func spawn(
    _ arguments: [String], searchPath: Bool = false, logPath: String? = nil
  ) throws(BenchError) -> pid_t {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    if let logPath {
      posix_spawn_file_actions_addopen(
        &actions, 2, logPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    }
    posix_spawn_file_actions_adddup2(&actions, 2, 1)
    let argv = arguments.map { strdup($0) } + [nil]
    defer { for argument in argv { free(argument) } }
    var pid: pid_t = 0
    let result =
      searchPath
      ? posix_spawnp(&pid, arguments[0], &actions, nil, argv, environ)
      : posix_spawn(&pid, arguments[0], &actions, nil, argv, environ)
    guard result == 0 else { throw .system(call: "posix_spawn \(arguments[0])", code: result) }
    ChildProcessGuard.watch(pid)
    return pid
  }

  /// How a child ended.
  enum Ending: CustomStringConvertible {
    case exited(Int32)
    case signaled(Int32)

    var description: String {
      switch self {
      case .exited(let status): "exit status \(status)"
      case .signaled(let number): "killed by signal \(number)"
      }
    }
  }

  /// Reaps `pid` if it has ended, without waiting.
  static func ended(_ pid: pid_t) -> Ending? {
    var status: Int32 = 0
    guard waitpid(pid, &status, WNOHANG) == pid else { return nil }
    ChildProcessGuard.forget(pid)
    // WIFEXITED and friends are macros Swift cannot import.
    let signal = status & 0x7F
    return signal == 0 ? .exited((status >> 8) & 0xFF) : .signaled(signal)
  }

  /// Waits up to `seconds` for `pid` to end.
  static func wait(_ pid: pid_t, seconds: Double) -> Ending? {
    let end = MonotonicTime.now() + UInt64(seconds * 1e9)
    while true {
      if let ending = ended(pid) { return ending }
      guard MonotonicTime.now() < end else { return nil }
      usleep(10_000)
    }
  }

  /// Sends SIGTERM, then SIGKILL if `pid` is still there after `grace` seconds, and reaps it.
  @discardableResult
  static func stop(_ pid: pid_t, grace: Double) -> (ending: Ending, killed: Bool) {
    kill(pid, SIGTERM)
    if let ending = wait(pid, seconds: grace) { return (ending, false) }
    kill(pid, SIGKILL)
    return (wait(pid, seconds: 5) ?? .signaled(SIGKILL), true)
  }
}
