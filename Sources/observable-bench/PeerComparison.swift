import Glibc
import TLS

/// `--scenario fan-out` and `--scenario memory` beside the peers (`--peers`, `--tls`): each
/// server started by the benchmark on a free loopback port and measured with the same client
/// code in its own protocol, in one run.
///
/// Fan-out starts every server once and interleaves them at each subscriber count (as
/// `cost.py` does), so that a change in the machine's load falls on all of them alike; memory
/// starts each server afresh, since it is measured from a server at rest.
struct PeerComparison {
  /// The servers measured, observable-server first.
  let servers: [ComparedServer]
  /// Whether every connection is over TLS.
  let tls: Bool
  /// The fan-out rows' subscriber counts; empty when fan-out is not measured.
  let fanOutCounts: [Int]
  /// The memory rows' connections; `nil` when memory is not measured.
  let memoryConnections: Int?
  /// The latency rows' load; `nil` when latency is not measured.
  let latency: LatencyScenario.Configuration?
  /// observable-server's `--threads` (`--server-threads`); `nil` for its default.
  let threads: Int?
  /// `--messages`, or `nil` for each server's default.
  let messages: Int?
  let window: Int
  let payload: Payload
  /// Rounds of the fan-out comparison (`--repeats`).
  let repeats: Int
  /// The observable-server executable.
  let observableServer: String
  /// Whether `observableServer` takes `--listen tls://` (its `--help` names `--tls-cert`).
  let observableHasTLS: Bool
  /// How long one measurement may take.
  let secondsEach: Double

  /// How many measurements the run makes, each within `secondsEach`.
  var measurementCount: Int {
    servers.count
      * ((fanOutCounts.count + (latency == nil ? 0 : 1)) * repeats
        + (memoryConnections == nil ? 0 : 1))
  }

  /// Measures everything; a measurement that cannot be made becomes a failed row.
  func execute() throws(BenchError) -> (rows: [ResultRow], notes: [String]) {
    let files = try BenchCertificate(
      tls: tls, deadline: Deadline(secondsFromNow: secondsEach))
    let context = try tls ? clientContext(files) : nil
    var notes: [String] = []
    var measured = servers
    if tls, !observableHasTLS {
      measured.removeAll { $0 == .observable || $0 == .observableEpoll }
      notes.append(
        "observable-server not measured over TLS: \(observableServer) has no --tls-cert")
    }
    var rows: [ResultRow] = []
    if !fanOutCounts.isEmpty {
      rows += try fanOut(measured, files: files, context: context)
    }
    if let latency {
      let latencyRows = try self.latency(measured, configuration: latency, files: files)
      rows += latencyRows
      notes += Self.latencyMedians(latencyRows, servers: measured)
    }
    if let memoryConnections {
      for server in measured {
        rows.append(
          measure("connection memory, \(server.rawValue)") { () throws(BenchError) in
            let deadline = Deadline(secondsFromNow: secondsEach)
            let process = try start(server, files: files, connections: memoryConnections, deadline)
            defer { process.stop() }
            return try PeerMemory(
              server: server, process: process, tls: context, connections: memoryConnections
            ).run(deadline: deadline)
          })
      }
    }
    return (rows, notes)
  }

  private func fanOut(
    _ measured: [ComparedServer], files: BenchCertificate, context: TLSContext?
  ) throws(BenchError) -> [ResultRow] {
    let most = fanOutCounts.max() ?? 1
    var processes: [ComparedServer: PeerProcess] = [:]
    defer { for process in processes.values { process.stop() } }
    for server in measured {
      processes[server] = try start(
        server, files: files, connections: most + 1, Deadline(secondsFromNow: secondsEach))
    }
    var rows: [ResultRow] = []
    for count in fanOutCounts {
      for round in 0..<repeats {
        for server in measured {
          guard let process = processes[server] else { continue }
          let label = "fan-out \(round + 1)/\(repeats), \(count) subscribers, \(server.rawValue)"
          rows.append(
            measure(label) { () throws(BenchError) in
              try PeerFanOut(
                server: server, process: process, tls: context, subscribers: count,
                messages: messageCount(server, subscribers: count), window: window,
                payload: payload
              ).run(deadline: Deadline(secondsFromNow: secondsEach)).row()
            })
        }
      }
    }
    return rows
  }

  /// `--messages`, or fan-out's default of 6,000,000 deliveries' worth (20,000 to 1,000,000);
  /// for Mosquitto 300,000 deliveries' worth (2,000 to 50,000): it writes every delivery to
  /// the socket by itself, at 50,000 to 100,000 a second here, and would otherwise take
  /// minutes per row.
  func messageCount(_ server: ComparedServer, subscribers: Int) -> Int {
    if let messages { return messages }
    guard server != .mosquitto else { return min(50_000, max(2000, 300_000 / subscribers)) }
    return min(1_000_000, max(20_000, 6_000_000 / subscribers))
  }

  func measure(_ label: String, _ body: () throws(BenchError) -> ResultRow) -> ResultRow {
    BenchLog.note(label)
    do {
      return try body()
    } catch {
      let parts = label.split(separator: ",", maxSplits: 1)
      return ResultRow(
        scenario: String(parts[0]), parameter: parts.count > 1 ? String(parts[1]) : "",
        result: "error", problems: [error.description])
    }
  }

  func start(
    _ server: ComparedServer, files: BenchCertificate, connections: Int, _ deadline: Deadline
  ) throws(BenchError) -> PeerProcess {
    let port = try PeerProcess.freePort()
    let log = files.directory + "/\(server.rawValue).log"
    do {
      return try PeerProcess(
        server.command(
          port: port, tls: tls, files: files, observableServer: observableServer,
          connections: connections, threads: threads),
        port: port, logPath: log, deadline: deadline)
    } catch {
      // The log is in the run's folder, which goes when the run ends: say what it held.
      let output = String((ProcFile.read(log) ?? "").suffix(2000))
      throw .server("\(error)" + (output.isEmpty ? "" : "\n\(output)"))
    }
  }

  /// The benchmark's client side: it trusts the run's own certificate and nothing else, and
  /// checks that the server presents it for 127.0.0.1.
  private func clientContext(_ files: BenchCertificate) throws(BenchError) -> TLSContext {
    do {
      return try TLSContext(
        client: TLSClientConfiguration(
          serverVerification: .verify(caFile: files.certificatePath)))
    } catch {
      throw .unexpected("the client's TLS context: \(error)")
    }
  }
}
