import Foundation

/// One line of the final table, and one element of `--json`'s `results`.
struct ResultRow: Encodable, Sendable {
  var scenario: String
  var parameter: String
  var result: String
  /// Why the row did not pass (a loss, a failed check, an error); `nil` when it passed.
  var failure: String?
  var benchCPUPercent: Double?
  var serverCPUPercent: Double?
  /// The numbers behind `result`, for machines.
  var metrics: [String: Double]
  /// The server a comparison row measured (`observable`, `redis`, `nats`, `mosquitto`);
  /// `nil` in rows that measure observable-server alone.
  var peer: String?

  /// A row that passed when `problems` is empty, and otherwise failed for all of them.
  init(
    scenario: String, parameter: String, result: String, problems: [String] = [],
    cpu: CPUMeter.Shares? = nil, metrics: [String: Double] = [:]
  ) {
    self.scenario = scenario
    self.parameter = parameter
    self.result = result
    failure = problems.isEmpty ? nil : problems.joined(separator: "; ")
    benchCPUPercent = cpu?.bench
    serverCPUPercent = cpu?.server
    self.metrics = metrics
  }

  var passed: Bool { failure == nil }

  private enum CodingKeys: String, CodingKey {
    case scenario, parameter, result, passed, failure, benchCPUPercent, serverCPUPercent, metrics
    case peer
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(scenario, forKey: .scenario)
    try container.encode(parameter, forKey: .parameter)
    try container.encode(result, forKey: .result)
    try container.encode(passed, forKey: .passed)
    try container.encodeIfPresent(failure, forKey: .failure)
    try container.encodeIfPresent(benchCPUPercent.map(Format.rounded), forKey: .benchCPUPercent)
    try container.encodeIfPresent(serverCPUPercent.map(Format.rounded), forKey: .serverCPUPercent)
    try container.encode(metrics.mapValues(Format.rounded), forKey: .metrics)
    try container.encodeIfPresent(peer, forKey: .peer)
  }
}

/// Everything one run measured, with what it ran on.
struct BenchReport: Encodable, Sendable {
  var version: String
  var cores: Int
  var date: String
  /// How the server was run: `started` (a fresh process per scenario) or `connect`.
  var serverMode: String
  var server: String
  var notes: [String]
  var results: [ResultRow]

  var passed: Bool { results.allSatisfy(\.passed) }

  private enum CodingKeys: String, CodingKey {
    case version, cores, date, serverMode, server, notes, results, passed
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(version, forKey: .version)
    try container.encode(cores, forKey: .cores)
    try container.encode(date, forKey: .date)
    try container.encode(serverMode, forKey: .serverMode)
    try container.encode(server, forKey: .server)
    try container.encode(notes, forKey: .notes)
    try container.encode(results, forKey: .results)
    try container.encode(passed, forKey: .passed)
  }

  /// One JSON object on one line.
  func json() -> String {
    let encoder = JSONEncoder()
    encoder.keyEncodingStrategy = .convertToSnakeCase
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    guard let data = try? encoder.encode(self) else { return "{}" }
    return String(decoding: data, as: UTF8.self)
  }

  /// The JSON object for a run that could not start, such as one whose server does not build.
  static func failure(_ error: String) -> String {
    struct Failure: Encodable {
      let passed = false
      let error: String
    }
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    guard let data = try? encoder.encode(Failure(error: error)) else { return "{}" }
    return String(decoding: data, as: UTF8.self)
  }

  /// The table people read: a header, a row per measurement, then failures and notes.
  func table() -> String {
    let header = ["scenario", "parameter", "result", "cpu bench/server"]
    let cells = results.map { row in
      let server = row.serverCPUPercent.map { "\(Int($0.rounded()))%" } ?? "-"
      let cpu = row.benchCPUPercent.map { "\(Int($0.rounded()))% / \(server)" } ?? ""
      return [row.scenario, row.parameter, row.result, cpu]
    }
    var widths = header.map(\.count)
    for line in cells {
      for (column, cell) in line.enumerated() { widths[column] = max(widths[column], cell.count) }
    }
    func render(_ line: [String]) -> String {
      line.enumerated().map { column, cell in
        column == line.count - 1
          ? cell
          : cell.padding(
            toLength: widths[column] + 2,
            withPad: " ", startingAt: 0)
      }.joined().trimmingCharacters(in: .whitespaces)
    }
    var lines = ["observable-bench \(version) · \(cores) cores · \(date)", "server: \(server)"]
    lines.append(render(header))
    lines += cells.map(render)
    for row in results {
      if let failure = row.failure {
        lines.append("FAILED \(row.scenario), \(row.parameter): \(failure)")
      }
    }
    lines += notes.map { "note: \($0)" }
    lines.append(passed ? "all checks passed" : "some checks FAILED")
    return lines.joined(separator: "\n")
  }
}
