import Glibc
import ObservableServer

/// The server being measured: a fresh `observable-server` process the benchmark started, or
/// one already running that `--connect` named.
final class ServerUnderTest {
  let address: LoopbackAddress
  /// The port of the HTTP listener (`/ws`) of a server the benchmark started; nil otherwise.
  private(set) var httpPort: UInt16?
  /// The process ID when the benchmark started the server; only then can its memory and CPU
  /// time be read.
  let pid: pid_t?
  /// The file the server's standard error goes to, when the scenario asked to read its log.
  private(set) var logPath: String?

  /// A server that is already running.
  init(external address: LoopbackAddress) {
    self.address = address
    pid = nil
  }

  private init(address: LoopbackAddress, pid: pid_t, logPath: String?) {
    self.address = address
    self.pid = pid
    self.logPath = logPath
  }

  deinit {
    stop()
    if let logPath { unlink(logPath) }
  }

  /// Starts `executable` on a free loopback port and waits until it answers `ping`; with
  /// `logPath`, its log goes to that file instead of the benchmark's standard error.
  static func start(
    executable: String, arguments: [String], logPath: String? = nil, deadline: Deadline
  ) throws(BenchError) -> ServerUnderTest {
    // The free port is found by binding and releasing it, so another process can take it in
    // between; the server then fails to bind and exits, and another port is tried.
    for _ in 0..<3 {
      let port = try freePort()
      let httpPort = try freePort()
      // Under setpriv the kernel kills the server if the benchmark dies without stopping it.
      let launcher = access(setpriv, X_OK) == 0 ? [setpriv, "--pdeathsig", "KILL", "--"] : []
      let pid = try ChildProcess.spawn(
        launcher + [executable, "--listen", "127.0.0.1:\(port)", "--log-level", "warning"]
          + ["--http", "127.0.0.1:\(httpPort)"] + arguments, logPath: logPath)
      let server = ServerUnderTest(
        address: LoopbackAddress(ipv4Port: port), pid: pid, logPath: logPath)
      server.httpPort = httpPort
      if try server.awaitReady(deadline: deadline) { return server }
    }
    throw .server("\(executable) exited three times right after starting; see its log above")
  }

  /// How long a started server may take to answer ping: 15 s, or the seconds in
  /// `OBSERVABLE_BENCH_START_SECONDS` for a server that starts slowly on purpose (under
  /// valgrind, `Docs/bench/cg-auth.sh`).
  static var startSeconds: UInt64 {
    getenv("OBSERVABLE_BENCH_START_SECONDS").flatMap { UInt64(String(cString: $0)) } ?? 15
  }

  /// Waits until the server answers ping; `false` when it exited first.
  private func awaitReady(deadline: Deadline) throws(BenchError) -> Bool {
    guard let pid else { return true }
    let probe = address.listenAddress
    let seconds = Self.startSeconds
    let end = min(deadline.end, MonotonicTime.now() + seconds * 1_000_000_000)
    while MonotonicTime.now() < end {
      if ChildProcess.ended(pid) != nil {
        exited = true
        return false
      }
      if (try? HealthCheck.ping(probe, timeout: .seconds(1))) != nil { return true }
      usleep(20_000)
    }
    stop()
    throw .server("the server did not answer ping on \(address) within \(seconds) s")
  }

  /// Resident memory now, from /proc/PID/status; `nil` when the server is not the child.
  func residentBytes() -> Int? {
    guard let pid, let status = ProcFile.read("/proc/\(pid)/status") else { return nil }
    for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
      let kibibytes = line.split(separator: " ").dropFirst().first.flatMap { Int($0) }
      return kibibytes.map { $0 * 1024 }
    }
    return nil
  }

  /// Open file descriptors now, from /proc/PID/fd; `nil` when the server is not the child.
  func openDescriptors() -> Int? { descriptorTargets()?.count }

  /// What each open descriptor refers to (`socket:[123]`, `anon_inode:[eventfd]`, a path),
  /// sorted; for reporting which ones a leak left behind.
  func descriptorTargets() -> [String]? {
    guard let pid, let directory = opendir("/proc/\(pid)/fd") else { return nil }
    defer { closedir(directory) }
    var targets: [String] = []
    var buffer = [CChar](repeating: 0, count: 512)
    while let entry = readdir(directory) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) {
        String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
      }
      guard !name.hasPrefix(".") else { continue }
      let count = readlink("/proc/\(pid)/fd/\(name)", &buffer, buffer.count - 1)
      // A descriptor closed between readdir and readlink is no longer open.
      guard count > 0 else { continue }
      targets.append(
        String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self))
    }
    return targets.sorted()
  }

  /// Whether a started server is still running (not a zombie), without reaping it.
  var isRunning: Bool {
    guard let pid, !exited, let stat = ProcFile.read("/proc/\(pid)/stat") else { return false }
    // The state follows the command name, which is in parentheses and may contain spaces.
    guard let close = stat.lastIndex(of: ")") else { return false }
    return !stat[close...].hasPrefix(") Z")
  }

  /// Stops a started server: SIGTERM, which closes every connection and exits 0, then SIGKILL
  /// after 5 s. A server that needs SIGKILL, or exits otherwise, is reported.
  func stop() {
    guard let pid, !exited else { return }
    exited = true
    switch ChildProcess.stop(pid, grace: 5) {
    case (_, true):
      BenchLog.note("the server (pid \(pid)) ignored SIGTERM for 5 s and was killed")
    case (.exited(0), false):
      break
    case (let ending, false):
      BenchLog.note("the server (pid \(pid)) ended with \(ending) after SIGTERM")
    }
  }

  private var exited = false
  private static let setpriv = "/usr/bin/setpriv"

  static func freePort() throws(BenchError) -> UInt16 {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
    guard fd >= 0 else { throw .system(call: "socket", code: errno) }
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr = in_addr(s_addr: inet_addr("127.0.0.1"))
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0
      }
    }
    guard bound else { throw .system(call: "bind 127.0.0.1:0", code: errno) }
    return UInt16(bigEndian: address.sin_port)
  }
}

/// Where each scenario's server comes from.
///
/// A started server is fresh for every measurement, so that one scenario's leftovers (heap
/// grown by a fan-out, disconnects still running) cannot blur the next one's numbers.
enum ServerSource {
  case started(executable: String, arguments: [String])
  case external(LoopbackAddress)

  /// Runs `body` against a fresh server, stopped afterwards, or against the external one.
  /// `needs` adds the scenario's own arguments to a started server and may capture its log.
  func withServer<Result>(
    deadline: Deadline, needs: ServerNeeds = ServerNeeds(),
    _ body: (ServerUnderTest) throws(BenchError) -> Result
  ) throws(BenchError) -> Result {
    switch self {
    case .external(let address):
      return try body(ServerUnderTest(external: address))
    case .started(let executable, let arguments):
      let logPath = needs.capturesLog ? "/tmp/observable-bench-server-\(getpid()).log" : nil
      let server = try ServerUnderTest.start(
        executable: executable, arguments: arguments + needs.arguments, logPath: logPath,
        deadline: deadline)
      defer { server.stop() }
      return try body(server)
    }
  }
}

/// What a scenario asks of a server the benchmark starts for it.
struct ServerNeeds: Sendable {
  /// Flags added after the benchmark's own, so a scenario can set limits it depends on.
  var arguments: [String] = []
  /// Whether the server's log goes to a file the scenario reads (``ServerUnderTest/logPath``).
  var capturesLog = false
}
