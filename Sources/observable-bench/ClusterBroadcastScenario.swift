import Glibc

/// `--scenario broadcast --nodes N`: a three-server NATS cluster, N observable-server nodes
/// joined to it (`--cluster`, node i on NATS server i mod 3), one client worker process per
/// node holding that node's share of the subscribers, then values published one at a time on
/// node 0, each waited for at every subscriber on every node.
///
/// The figures are those of ``BroadcastScenario``, summed over processes: a broadcast's time
/// runs from just before the publish to the latest of the workers' last arrivals; CPU is the
/// growth of the nodes' threads' run time, and separately the NATS servers'; memory is the
/// growth of the nodes' summed RSS over subscribing, per subscriber.
struct ClusterBroadcastScenario {
  let shares: [Int]
  let broadcasts: Int
  let observableServer: String
  /// This benchmark's own executable, started again as each worker.
  let benchExecutable: String
  /// What each worker may take in all.
  let seconds: Double

  func run(deadline: Deadline) throws(BenchError) -> ClusterBroadcastResult {
    let nats = try BenchNATSCluster(deadline: deadline)
    defer { nats.stop() }
    let nodes = try startNodes(nats: nats, deadline: deadline)
    var finished = false
    defer {
      for node in nodes { kill(node.pid, SIGTERM) }
      for node in nodes { node.stop() }
      // A failed run's node logs are what explains it.
      if finished {
        for index in nodes.indices { unlink(logPath(index)) }
      } else {
        BenchLog.note("the nodes' logs are kept: \(logPath(0)) to \(logPath(nodes.count - 1))")
      }
    }
    usleep(300_000)
    let before = try residentSum(nodes)
    let setupStart = MonotonicTime.now()
    var workers: [BroadcastWorker] = []
    defer {
      for worker in workers { worker.signalStop() }
      for worker in workers { worker.stop() }
    }
    for (node, count) in zip(nodes, shares) {
      workers.append(
        try BroadcastWorker(
          executable: benchExecutable, port: node.port, count: count, broadcasts: broadcasts,
          seconds: seconds))
    }
    for worker in workers { try worker.awaitReady(deadline: deadline) }
    let setupSeconds = MonotonicTime.seconds(from: setupStart, to: MonotonicTime.now())
    let publisher = try BroadcastPublisher(
      server: .observable, port: nodes[0].port, deadline: deadline)
    // Lets the nodes finish what subscribing started before their memory is read, and their
    // NATS interest cross the routes before the first publish.
    usleep(1_000_000)
    let after = try residentSum(nodes)
    var figures = ClusterBroadcastFigures()
    let dropsBefore = Self.backlogDrops()
    for value in 0..<broadcasts {
      let nodesBefore = try cpuSum(nodes)
      let natsBefore = try cpuSum(nats.servers)
      let sent = MonotonicTime.now()
      try publisher.publish(value)
      var last: UInt64 = 0
      for worker in workers { last = max(last, try worker.awaitArrival(value, deadline: deadline)) }
      // What the servers still do for this broadcast (acknowledgements) counts too.
      usleep(20_000)
      figures.latenciesMilliseconds.append(Double(last &- sent) / 1e6)
      figures.nodeCPUMilliseconds.append(Double(try cpuSum(nodes) &- nodesBefore) / 1e6)
      figures.natsCPUMilliseconds.append(Double(try cpuSum(nats.servers) &- natsBefore) / 1e6)
      usleep(80_000)
    }
    figures.backlogDrops = Self.backlogDrops().map { $0 &- (dropsBefore ?? $0) }
    withExtendedLifetime(publisher) {}
    finished = true
    let ioUring = nodes.indices.filter {
      ProcFile.read(logPath($0))?.contains("sends batched through io_uring") ?? false
    }
    return ClusterBroadcastResult(
      shares: shares, figures: figures,
      bytesPerConnection: Double(after - before) / Double(shares.reduce(0, +)),
      rssBefore: before, rssAfter: after, setupSeconds: setupSeconds,
      nodesUsingIOUring: ioUring.count)
  }

  private func startNodes(
    nats: BenchNATSCluster, deadline: Deadline
  ) throws(BenchError) -> [PeerProcess] {
    var nodes: [PeerProcess] = []
    for (index, count) in shares.enumerated() {
      let port = try PeerProcess.freePort()
      let command = [
        observableServer, "--listen", "127.0.0.1:\(port)", "--log-level", "notice",
        "--max-connections", "\(count + 64)", "--io-uring", "auto", "--cluster", nats.url(index),
      ]
      nodes.append(
        try PeerProcess(command, port: port, logPath: logPath(index), deadline: deadline))
    }
    return nodes
  }

  /// Packets the kernel dropped because a CPU's input backlog was full, from the second
  /// column of /proc/net/softnet_stat (hexadecimal, one row per CPU); loopback traffic passes
  /// that backlog, so drops mean retransmissions, which show in the broadcast times.
  static func backlogDrops() -> UInt64? {
    guard let text = ProcFile.read("/proc/net/softnet_stat") else { return nil }
    var total: UInt64 = 0
    for row in text.split(separator: "\n") {
      let columns = row.split(separator: " ")
      guard columns.count > 1, let drops = UInt64(columns[1], radix: 16) else { return nil }
      total += drops
    }
    return total
  }

  private func logPath(_ index: Int) -> String {
    "/tmp/observable-bench-node\(index)-\(getpid()).log"
  }

  private func residentSum(_ processes: [PeerProcess]) throws(BenchError) -> Int {
    var total = 0
    for process in processes {
      guard let bytes = process.residentBytes() else {
        throw .server("/proc/\(process.pid)/status is unreadable: the process ended")
      }
      total += bytes
    }
    return total
  }

  private func cpuSum(_ processes: [PeerProcess]) throws(BenchError) -> UInt64 {
    var total: UInt64 = 0
    for process in processes {
      guard let nanoseconds = process.cpuNanoseconds() else {
        throw .server("/proc/\(process.pid)/task is unreadable: the process ended")
      }
      total += nanoseconds
    }
    return total
  }
}

/// Per-broadcast figures of a cluster broadcast.
struct ClusterBroadcastFigures: Sendable {
  /// Publish to the last arrival on any node.
  var latenciesMilliseconds: [Double] = []
  /// The observable-server nodes' CPU, summed.
  var nodeCPUMilliseconds: [Double] = []
  /// The NATS servers' CPU, summed.
  var natsCPUMilliseconds: [Double] = []
  /// Packets dropped machine-wide at a full per-CPU backlog over the broadcasts (other
  /// processes' traffic included); `nil` when /proc/net/softnet_stat is unreadable.
  var backlogDrops: UInt64?
}
