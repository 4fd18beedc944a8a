import Glibc

/// A client worker process of the cluster broadcast: this benchmark again, with
/// `--broadcast-worker PORT`, holding one node's subscribers in its own process (so that no
/// process passes 20,000 files) and telling the parent over a pipe, one line each, when they are
/// all subscribed (`ready`) and when each broadcast reached the last of them
/// (`arrived VALUE NANOSECONDS`, on the machine-wide monotonic clock the parent reads too).
final class BroadcastWorker {
  let pid: pid_t

  /// Starts the worker; it subscribes `count` connections to `port`.
  init(
    executable: String, port: UInt16, count: Int, broadcasts: Int, seconds: Double
  ) throws(BenchError) {
    var ends: [Int32] = [0, 0]
    guard pipe(&ends) == 0 else { throw .system(call: "pipe", code: errno) }
    // Close-on-exec, so that no other child (a node, a later worker) holds the write end open.
    for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    // dup2 clears close-on-exec on the copy, so the worker keeps only the pipe's write end.
    posix_spawn_file_actions_adddup2(&actions, ends[1], 1)
    // Under setpriv the kernel kills the worker if the benchmark dies without stopping it.
    let launcher =
      access("/usr/bin/setpriv", X_OK) == 0
      ? ["/usr/bin/setpriv", "--pdeathsig", "KILL", "--"] : []
    let arguments =
      launcher + [
        executable, "--scenario", "broadcast", "--broadcast-worker", "\(port)",
        "--broadcast-subscribers", "\(count)", "--broadcasts", "\(broadcasts)",
        "--timeout", "\(Int(seconds.rounded(.up)))",
      ]
    let argv = arguments.map { strdup($0) } + [nil]
    defer { for argument in argv { free(argument) } }
    var pid: pid_t = 0
    let result = posix_spawn(&pid, arguments[0], &actions, nil, argv, environ)
    close(ends[1])
    guard result == 0 else {
      close(ends[0])
      throw .system(call: "posix_spawn \(arguments[0])", code: result)
    }
    self.pid = pid
    self.port = port
    fd = ends[0]
  }

  deinit {
    stop()
    close(fd)
  }

  /// Waits for `ready`: every subscription of this worker was confirmed.
  func awaitReady(deadline: Deadline) throws(BenchError) {
    let line = try nextLine(deadline: deadline, activity: "subscribing")
    guard line == "ready" else { throw .unexpected("worker for port \(port): \(line)") }
  }

  /// Waits until broadcast `value` reached every subscriber of this worker; returns when the
  /// last one got it, in ``MonotonicTime`` nanoseconds.
  func awaitArrival(_ value: Int, deadline: Deadline) throws(BenchError) -> UInt64 {
    let line = try nextLine(deadline: deadline, activity: "awaiting broadcast \(value)")
    let words = line.split(separator: " ")
    guard words.count == 3, words[0] == "arrived", Int(words[1]) == value,
      let time = UInt64(words[2])
    else { throw .unexpected("worker for port \(port): \(line)") }
    return time
  }

  /// SIGTERM, then SIGKILL after 2 s; a worker has nothing to finish.
  func stop() {
    guard !stopped else { return }
    stopped = true
    ChildProcess.stop(pid, grace: 2)
  }

  /// Sends SIGTERM without waiting, so that many workers end together.
  func signalStop() {
    if !stopped { kill(pid, SIGTERM) }
  }

  private func nextLine(deadline: Deadline, activity: String) throws(BenchError) -> String {
    var chunk = [UInt8](repeating: 0, count: 512)
    while true {
      if let newline = pending.firstIndex(of: 0x0A) {
        let line = String(decoding: pending[..<newline], as: UTF8.self)
        pending.removeSubrange(...newline)
        return line
      }
      try deadline.check("in the worker for port \(port), \(activity)")
      var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
      guard poll(&descriptor, 1, deadline.pollTimeout()) > 0 else { continue }
      let count = read(fd, &chunk, chunk.count)
      if count < 0, errno == EINTR { continue }
      guard count > 0 else {
        let ending = ChildProcess.wait(pid, seconds: 1).map { "\($0)" } ?? "closed its pipe"
        stopped = true
        throw .server("the worker for port \(port) ended (\(ending)) while \(activity)")
      }
      pending += chunk[..<count]
      // A worker's lines are short; a runaway one means something else writes to the pipe.
      guard pending.count < 1 << 12 else { throw .unexpected("a long line from a worker") }
    }
  }

  private let port: UInt16
  private let fd: Int32
  private var pending: [UInt8] = []
  private var stopped = false
}
