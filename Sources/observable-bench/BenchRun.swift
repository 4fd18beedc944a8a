/// One measurement: a scenario with its parameters, which makes one row of the table.
protocol Scenario {
  /// The scenario's name in the table, such as `fan-out`.
  var name: String { get }
  /// What distinguishes this row, such as `10 subscribers`.
  var parameter: String { get }
  /// Measures `server`; throws when the measurement cannot be made at all.
  func run(server: ServerUnderTest, deadline: Deadline) throws(BenchError) -> ResultRow
  /// What a server started for this scenario needs; by default nothing beyond the usual.
  var serverNeeds: ServerNeeds { get }
}

extension Scenario {
  var serverNeeds: ServerNeeds { ServerNeeds() }
}

/// The measurements one invocation makes, in order, each against its own server.
struct BenchRun {
  var measurements: [any Scenario]
  var source: ServerSource
  var deadline: Deadline

  /// Runs every measurement; one that cannot be carried out becomes a failed row, and once the
  /// deadline has passed the rest are reported as skipped.
  func execute() -> [ResultRow] {
    var rows: [ResultRow] = []
    for (index, measurement) in measurements.enumerated() {
      let label = "\(measurement.name), \(measurement.parameter)"
      if deadline.hasPassed {
        rows.append(
          ResultRow(
            scenario: measurement.name, parameter: measurement.parameter,
            result: "skipped", problems: ["not run: the run reached --timeout"]))
        continue
      }
      BenchLog.note("[\(index + 1)/\(measurements.count)] \(label)")
      do {
        let row = try source.withServer(
          deadline: deadline, needs: measurement.serverNeeds
        ) { server throws(BenchError) in
          try measurement.run(server: server, deadline: deadline)
        }
        rows.append(row)
      } catch {
        rows.append(
          ResultRow(
            scenario: measurement.name, parameter: measurement.parameter,
            result: "error", problems: [error.description]))
      }
    }
    return rows
  }
}
