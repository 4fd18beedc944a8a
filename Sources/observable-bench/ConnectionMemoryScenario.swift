import Glibc

/// Connection memory: how much the server's resident memory grows per connected subscriber.
///
/// Connections are opened in batches well under the server's listen backlog, each subscribing
/// to one of 100 topics; the server's VmRSS is read before the first and after the last answer.
/// RSS counts the server's own memory only: socket buffers live in the kernel.
struct ConnectionMemoryScenario: Scenario {
  let connections: Int
  let topics = 100
  /// Connections being set up at once: a batch beyond the listen backlog (1024) would leave
  /// SYNs dropped and retried a second later.
  let batch = 250

  var name: String { "connection memory" }
  var parameter: String { "\(connections) conns" }

  func run(server: ServerUnderTest, deadline: Deadline) throws(BenchError) -> ResultRow {
    guard server.pid != nil, let before = settledResidentBytes(server) else {
      return ResultRow(
        scenario: name, parameter: parameter,
        result: "not measured: only a server the benchmark starts has a readable RSS")
    }
    let meter = CPUMeter(serverPID: server.pid)
    let started = MonotonicTime.now()
    var open: [ClientConnection] = []
    open.reserveCapacity(connections)
    while open.count < connections {
      let count = min(batch, connections - open.count)
      let first = open.count
      let fresh = try (0..<count).map { _ throws(BenchError) in
        try ClientConnection(to: server.address, readCapacity: 4096)
      }
      try Handshake.run(fresh, deadline: deadline) { index in
        LineShape.subscribe("mem.\((first + index) % topics)")
      }
      open += fresh
    }
    let openSeconds = MonotonicTime.seconds(from: started, to: MonotonicTime.now())
    let cpu = meter.finish()
    guard let after = settledResidentBytes(server) else {
      throw .server("the server's /proc/PID/status became unreadable")
    }
    let perConnection = Double(after - before) / Double(connections)
    return ResultRow(
      scenario: name, parameter: parameter,
      result: "\(Format.bytes(perConnection)) per connection (RSS \(Format.bytes(Double(before)))"
        + " → \(Format.bytes(Double(after))), opened in \(Format.decimal(openSeconds)) s)",
      cpu: cpu,
      metrics: [
        "connections": Double(connections), "topics": Double(topics),
        "rss_before_bytes": Double(before), "rss_after_bytes": Double(after),
        "bytes_per_connection": perConnection, "open_s": openSeconds,
      ])
  }

  /// RSS once the server has had a moment to finish what it was doing.
  private func settledResidentBytes(_ server: ServerUnderTest) -> Int? {
    usleep(200_000)
    return server.residentBytes()
  }
}
