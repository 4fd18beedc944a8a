import Glibc

/// One server's broadcast figures: N subscribers to one topic, then values published one at a
/// time, each waited for at every subscriber.
///
/// The time of a broadcast runs from just before the publish is sent to the arrival of its
/// value at the last subscriber, as the client's one epoll thread sees it; the server's CPU is
/// the growth of its threads' run time (ns, from /proc schedstat) over the same span and a
/// short settling after it; memory is the growth of its RSS from before the first connection to
/// after the last subscription was confirmed, per connection.
struct BroadcastScenario {
  let peer: ComparedServer
  /// observable-server's `--threads`; `nil` for its default (and for the peers).
  let threads: Int?
  let subscribers: Int
  let broadcasts: Int
  let observableServer: String

  func run(deadline: Deadline) throws(BenchError) -> BroadcastResult {
    let port = try PeerProcess.freePort()
    let logPath = "/tmp/observable-bench-\(peer.rawValue)-\(getpid()).log"
    // The folder for a peer's configuration file (Mosquitto's); no certificate.
    let files = try BenchCertificate(tls: false, deadline: deadline)
    let server = try PeerProcess(
      peer.command(
        port: port, tls: false, files: files, observableServer: observableServer,
        connections: subscribers, threads: threads, logLevel: "notice"),
      port: port, logPath: logPath, deadline: deadline)
    defer {
      server.stop()
      unlink(logPath)
      // The folder goes with `files`: not before the server has stopped.
      withExtendedLifetime(files) {}
    }
    usleep(300_000)
    guard let before = server.residentBytes() else {
      throw .server("\(peer.rawValue): /proc/\(server.pid)/status is unreadable")
    }
    let setupStart = MonotonicTime.now()
    let clients = try BroadcastSubscribers(
      server: peer, port: port, count: subscribers, deadline: deadline)
    let setupSeconds = MonotonicTime.seconds(from: setupStart, to: MonotonicTime.now())
    let publisher = try BroadcastPublisher(server: peer, port: port, deadline: deadline)
    // Lets the server finish what subscribing started before its memory is read.
    usleep(500_000)
    guard let after = server.residentBytes() else {
      throw .server("\(peer.rawValue): /proc/\(server.pid)/status became unreadable")
    }
    var latencies: [Double] = []
    var scheduling = BroadcastScheduling()
    for value in 0..<broadcasts {
      guard let serverBefore = server.scheduling() else {
        throw .server("\(peer.rawValue): /proc/\(server.pid)/task is unreadable")
      }
      let benchBefore = PeerProcess.scheduling(of: getpid())
      let sent = MonotonicTime.now()
      try publisher.publish(value)
      let last = try clients.awaitDelivered(subscribers * (value + 1), deadline: deadline)
      let benchAfter = PeerProcess.scheduling(of: getpid())
      // What the server still does for this broadcast (acknowledgements) counts too.
      usleep(20_000)
      guard let serverAfter = server.scheduling() else {
        throw .server("\(peer.rawValue): /proc/\(server.pid)/task became unreadable")
      }
      latencies.append(Double(last &- sent) / 1e6)
      scheduling.record(
        server: (serverBefore, serverAfter),
        bench: benchBefore.flatMap { before in
          benchAfter.map { (before, $0) }
        })
      usleep(80_000)
    }
    return BroadcastResult(
      peer: peer, threads: threads, subscribers: subscribers,
      latenciesMilliseconds: latencies, cpuMilliseconds: scheduling.serverCPU,
      waitMilliseconds: scheduling.serverWait, benchCPUMilliseconds: scheduling.benchCPU,
      benchWaitMilliseconds: scheduling.benchWait,
      bytesPerConnection: Double(after - before) / Double(subscribers),
      rssBefore: before, rssAfter: after, setupSeconds: setupSeconds,
      usedIOUring: peer == .observable ? Self.logMentionsIOUring(logPath) : nil)
  }

  /// Whether observable-server said at start that it batches sends through io_uring.
  private static func logMentionsIOUring(_ path: String) -> Bool {
    ProcFile.read(path)?.contains("sends batched through io_uring") ?? false
  }
}

/// What ``BroadcastScenario`` measured for one server.
struct BroadcastResult: Sendable {
  let peer: ComparedServer
  /// observable-server's `--threads` when given.
  let threads: Int?
  let subscribers: Int
  /// Publish to the last arrival, per broadcast.
  let latenciesMilliseconds: [Double]
  /// Server CPU, per broadcast.
  let cpuMilliseconds: [Double]
  /// Time the server's threads were runnable but had no CPU, per broadcast (summed over them).
  let waitMilliseconds: [Double]
  /// The benchmark's own CPU (its reader of every subscriber) from the publish to the last
  /// arrival, per broadcast.
  let benchCPUMilliseconds: [Double]
  /// The benchmark's time runnable without a CPU over the same span, per broadcast.
  let benchWaitMilliseconds: [Double]
  let bytesPerConnection: Double
  let rssBefore: Int
  let rssAfter: Int
  /// Opening every subscriber and having every subscription confirmed.
  let setupSeconds: Double
  /// For observable-server with `--io-uring auto`: whether it said it uses io_uring.
  let usedIOUring: Bool?

  /// The nearest-rank percentile `p` (0-100) of `values`: with 20 values p99 is the largest.
  static func percentile(_ p: Double, of values: [Double]) -> Double {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return .nan }
    let rank = Int((p / 100 * Double(sorted.count)).rounded(.up))
    return sorted[min(sorted.count, max(1, rank)) - 1]
  }

  var p50: Double { Self.percentile(50, of: latenciesMilliseconds) }
  var p99: Double { Self.percentile(99, of: latenciesMilliseconds) }
  var cpuMean: Double { cpuMilliseconds.reduce(0, +) / Double(max(1, cpuMilliseconds.count)) }
  var cpuMedian: Double { Self.percentile(50, of: cpuMilliseconds) }
  var waitMedian: Double { Self.percentile(50, of: waitMilliseconds) }
  var benchCPUMedian: Double { Self.percentile(50, of: benchCPUMilliseconds) }
  var benchWaitMedian: Double { Self.percentile(50, of: benchWaitMilliseconds) }
}
