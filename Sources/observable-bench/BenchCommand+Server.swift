import ArgumentParser
import ObservableServer

/// Which server a run measures, and the notes printed under its table.
extension BenchCommand {
  /// The server to measure, and how the table describes it.
  func serverSource(deadline: Deadline) throws(BenchError) -> (ServerSource, String) {
    if let connect {
      let address = try LoopbackAddress(parsing: connect)
      do {
        try HealthCheck.ping(address.listenAddress, timeout: .seconds(3))
      } catch {
        throw .server("--connect \(address): no observable-server answers ping: \(error)")
      }
      return (.external(address), "already running at \(address) (--connect)")
    }
    let executable = try ServerExecutable.resolve(
      explicitPath: server, build: !noBuild, deadline: deadline)
    // Room for the memory scenario's connections, which the default of 1024 would refuse.
    var arguments = ["--max-connections", "\(max(1024, connections + 256))"]
    if let serverThreads { arguments += ["--threads", "\(serverThreads)"] }
    let threads = serverThreads.map { "\($0) threads" } ?? "default threads"
    return (
      .started(executable: executable, arguments: arguments),
      "\(executable), a fresh process per row, \(threads)"
    )
  }

  /// What a reader needs in order to interpret the numbers.
  func notes(_ selected: [ScenarioName]) -> [String] {
    var notes = [
      "cpu is % of one core over the measured phase: the bench shares the machine with the server"
    ]
    #if DEBUG
      notes.append("this is a debug build of the benchmark and server: use swift run -c release")
    #endif
    if connect != nil {
      if selected.contains(.memory) {
        notes.append(
          "connection memory needs the server's PID, so it is not measured with --connect")
      }
      if selected.contains(.churn) {
        notes.append("churn's disconnect count assumes no other client uses the server meanwhile")
      }
    }
    return notes
  }
}
