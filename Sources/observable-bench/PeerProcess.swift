import Glibc

/// A server process the broadcast scenario started, with the figures read from /proc.
final class PeerProcess {
  let pid: pid_t
  let port: UInt16

  /// Starts `command` (its port already chosen) and waits until the port accepts connections.
  init(_ command: [String], port: UInt16, logPath: String, deadline: Deadline) throws(BenchError) {
    // Under setpriv the kernel kills the server if the benchmark dies without stopping it.
    let launcher =
      access("/usr/bin/setpriv", X_OK) == 0
      ? ["/usr/bin/setpriv", "--pdeathsig", "KILL", "--"] : []
    pid = try ChildProcess.spawn(launcher + command, searchPath: true, logPath: logPath)
    self.port = port
    let end = min(deadline.end, MonotonicTime.now() + 15_000_000_000)
    while MonotonicTime.now() < end {
      if let ending = ChildProcess.ended(pid) {
        stopped = true
        throw .server("\(command[0]) ended with \(ending) right after starting; see \(logPath)")
      }
      if Self.accepts(port) { return }
      usleep(20_000)
    }
    stop()
    throw .server("\(command[0]) did not accept connections on port \(port) within 15 s")
  }

  deinit { stop() }

  /// SIGTERM, then SIGKILL after 5 s.
  func stop() {
    guard !stopped else { return }
    stopped = true
    ChildProcess.stop(pid, grace: 5)
  }

  /// Resident memory now, from /proc/PID/status.
  func residentBytes() -> Int? {
    guard let status = ProcFile.read("/proc/\(pid)/status") else { return nil }
    for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
      return line.split(separator: " ").dropFirst().first.flatMap { Int($0) }.map { $0 * 1024 }
    }
    return nil
  }

  /// CPU time all the process's threads have run, in nanoseconds: the sum of each thread's
  /// /proc schedstat, which counts nanoseconds where /proc/PID/stat counts 10 ms ticks.
  func cpuNanoseconds() -> UInt64? {
    scheduling()?.running
  }

  /// What the scheduler did with all the process's threads so far, summed over them from
  /// /proc/PID/task/*/schedstat: time run, time spent runnable but waiting for a CPU (the
  /// run queue), both in nanoseconds, and the number of times a thread was put on a CPU.
  func scheduling() -> (running: UInt64, waiting: UInt64, slices: UInt64)? {
    Self.scheduling(of: pid)
  }

  /// ``scheduling()`` for any process, the benchmark's own (`getpid()`) included.
  static func scheduling(of pid: pid_t) -> (running: UInt64, waiting: UInt64, slices: UInt64)? {
    guard let directory = opendir("/proc/\(pid)/task") else { return nil }
    defer { closedir(directory) }
    var total: (running: UInt64, waiting: UInt64, slices: UInt64) = (0, 0, 0)
    while let entry = readdir(directory) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) {
        String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
      }
      guard !name.hasPrefix("."), let stat = ProcFile.read("/proc/\(pid)/task/\(name)/schedstat")
      else { continue }
      let fields = stat.split(separator: " ").compactMap { UInt64($0.prefix { $0.isNumber }) }
      guard fields.count >= 3 else { continue }
      total.running += fields[0]
      total.waiting += fields[1]
      total.slices += fields[2]
    }
    return total
  }

  /// A loopback port nobody listens on now.
  static func freePort() throws(BenchError) -> UInt16 {
    try ServerUnderTest.freePort()
  }

  private static func accepts(_ port: UInt16) -> Bool {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
    guard fd >= 0 else { return false }
    defer { close(fd) }
    return LoopbackAddress(ipv4Port: port).withSocketAddress { connect(fd, $0, $1) == 0 }
  }

  private var stopped = false
}
