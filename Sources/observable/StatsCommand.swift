import ArgumentParser
import ObservableClient
import ObservableWire

/// `observable stats`: one snapshot of the server's counters.
struct StatsCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "stats",
    abstract: "Print one snapshot of the server's counters.",
    usage: "observable stats [--json] [<options>]",
    discussion: """
      One counter per line, name and value in columns. The counters of a clustered server's \
      link to NATS are named after their object, such as cluster.connected and \
      cluster.values_in.
      """)

  @OptionGroup var connection: ConnectionOptions

  @Flag(help: "Print the snapshot as the JSON line the server sent.")
  var json = false

  func run() async throws {
    let client = try await connection.connect()
    defer { client.close() }
    var snapshot: Delivery?
    for await delivery in client.stream("stats").values {
      snapshot = delivery
      break
    }
    guard let snapshot else { throw ExitCode.failure }
    if json {
      Terminal.print(snapshot.valueText)
      return
    }
    for line in Table.lines(StatsRows.rows(snapshot.valueText)) { Terminal.print(line) }
  }
}

/// A stats snapshot as NAME VALUE rows, nested objects flattened into dotted names.
enum StatsRows {
  /// The rows of `json`, sorted by name: `cluster.connected true` for
  /// `{"cluster":{"connected":true}}`. Arrays stay compact JSON; a snapshot that is not an
  /// object is one row named `value`.
  static func rows(_ json: String) -> [[String]] {
    guard let value = JSONValue(parsing: json) else { return [["value", json]] }
    var rows: [[String]] = []
    flatten(value, name: "", into: &rows)
    return rows.sorted { $0[0] < $1[0] }
  }

  private static func flatten(_ value: JSONValue, name: String, into rows: inout [[String]]) {
    switch value {
    case .object(let members) where !members.isEmpty:
      for member in members {
        flatten(
          member.value, name: name.isEmpty ? member.key : "\(name).\(member.key)", into: &rows)
      }
    case .string(let text):
      rows.append([name.isEmpty ? "value" : name, text])
    default:
      rows.append([name.isEmpty ? "value" : name, value.compactText])
    }
  }
}
