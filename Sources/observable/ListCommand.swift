import ArgumentParser
import Foundation
import ObservableClient

/// `observable list`: the server's streams as a table, or as JSON.
struct ListCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "list", abstract: "List the server's streams: name, kind, subscribers.")

  @OptionGroup var connection: ConnectionOptions

  @Flag(help: "print the list as one JSON array")
  var json = false

  func run() async throws {
    let client = try await connection.connect()
    defer { client.close() }
    let streams = try await Failure.reporting { try await client.list() }
    if json {
      let encoder = JSONEncoder()
      encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
      Terminal.print(String(decoding: try encoder.encode(streams), as: UTF8.self))
      return
    }
    let rows =
      [["NAME", "KIND", "SUBSCRIBERS"]]
      + streams.map { [$0.name, $0.kind, String($0.subscribers)] }
    for line in Table.lines(rows) { Terminal.print(line) }
  }
}

/// Columns padded to their widest cell, two spaces apart.
enum Table {
  /// The rows as aligned lines.
  static func lines(_ rows: [[String]]) -> [String] {
    let columns = rows.map(\.count).max() ?? 0
    let widths = (0..<columns).map { column in
      rows.map { column < $0.count ? $0[column].count : 0 }.max() ?? 0
    }
    return rows.map { row in
      row.enumerated().map { column, cell in
        column == row.count - 1
          ? cell : cell.padding(toLength: widths[column], withPad: " ", startingAt: 0)
      }.joined(separator: "  ")
    }
  }
}
