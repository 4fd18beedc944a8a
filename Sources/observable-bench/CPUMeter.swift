import Glibc

/// CPU time spent by the benchmark and by the server over one measured phase.
///
/// Both share two cores, so a number means little without these: a client near 100% of a core
/// is the limit, not the server.
struct CPUMeter {
  /// Shares of one core, in percent, over the phase.
  struct Shares: Sendable {
    var bench: Double
    var server: Double?
    /// The server's CPU seconds (user plus system), when its share is known.
    var serverSeconds: Double?
  }

  /// Starts measuring; `serverPID` is `nil` when the server is not the benchmark's child.
  init(serverPID: pid_t?) {
    self.serverPID = serverPID
    startWall = MonotonicTime.now()
    startBench = Self.benchSeconds()
    startServer = serverPID.flatMap(Self.processSeconds)
  }

  /// The shares since ``init(serverPID:)``.
  func finish() -> Shares {
    let wall = MonotonicTime.seconds(from: startWall, to: MonotonicTime.now())
    guard wall > 0 else { return Shares(bench: 0, server: nil) }
    let bench = (Self.benchSeconds() - startBench) / wall * 100
    var server: Double?
    var serverSeconds: Double?
    if let serverPID, let startServer, let now = Self.processSeconds(serverPID) {
      serverSeconds = now - startServer
      server = (now - startServer) / wall * 100
    }
    return Shares(bench: bench, server: server, serverSeconds: serverSeconds)
  }

  /// User plus system time of this process, all threads.
  static func benchSeconds() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return seconds(usage.ru_utime) + seconds(usage.ru_stime)
  }

  /// User plus system time of another process, from /proc/PID/stat.
  static func processSeconds(_ pid: pid_t) -> Double? {
    guard let stat = ProcFile.read("/proc/\(pid)/stat"),
      let afterName = stat.lastIndex(of: ")")
    else { return nil }
    // After the parenthesised name: state is field 3, utime 14 and stime 15.
    let fields = stat[stat.index(after: afterName)...].split(separator: " ")
    guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else {
      return nil
    }
    return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
  }

  private static func seconds(_ time: timeval) -> Double {
    Double(time.tv_sec) + Double(time.tv_usec) / 1e6
  }

  private let serverPID: pid_t?
  private let startWall: UInt64
  private let startBench: Double
  private let startServer: Double?
}
