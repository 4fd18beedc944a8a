/// `--scenario latency` beside the peers: every server started once, then measured in turn
/// in each of `--repeats` rounds, so that a change in the machine's load falls on all alike.
extension PeerComparison {
  func latency(
    _ measured: [ComparedServer], configuration: LatencyScenario.Configuration,
    files: BenchCertificate
  ) throws(BenchError) -> [ResultRow] {
    var processes: [ComparedServer: PeerProcess] = [:]
    defer { for process in processes.values { process.stop() } }
    for server in measured {
      processes[server] = try start(
        server, files: files, connections: configuration.subscribers + 1,
        Deadline(secondsFromNow: secondsEach))
    }
    var rows: [ResultRow] = []
    for round in 0..<repeats {
      for server in measured {
        guard let process = processes[server] else { continue }
        let label =
          "latency \(round + 1)/\(repeats), \(configuration.rate)/s × "
          + "\(configuration.subscribers), \(server.rawValue)"
        rows.append(
          measure(label) { () throws(BenchError) in
            try PeerLatency(server: server, process: process, configuration: configuration)
              .run(deadline: Deadline(secondsFromNow: secondsEach))
          })
      }
    }
    return rows
  }

  /// One note per server: the median over the rounds of each percentile, the figure the
  /// comparison is judged by (single rounds move with the machine's scheduling).
  static func latencyMedians(_ rows: [ResultRow], servers: [ComparedServer]) -> [String] {
    servers.compactMap { server in
      let own = rows.filter { $0.peer == server.rawValue && $0.passed }
      guard !own.isEmpty else { return nil }
      let cells = [("p50", "p50_us"), ("p99", "p99_us"), ("p99.9", "p999_us"), ("max", "max_us")]
        .map { name, key in
          let values = own.compactMap { $0.metrics[key] }.sorted()
          return "\(name) \(Format.microseconds(values[values.count / 2]))"
        }
      return "latency medians of \(own.count) rounds, \(server.rawValue): "
        + cells.joined(separator: "  ")
    }
  }
}
