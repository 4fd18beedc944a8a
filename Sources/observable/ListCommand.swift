import ArgumentParser
import ObservableClient

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// `observable list`: the server's streams as a table, or as JSON.
struct ListCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "list", abstract: "List the server's streams: name, kind, subscribers.",
    usage: "observable list [--json] [<options>]")

  @OptionGroup var connection: ConnectionOptions

  @Flag(help: "Print the list as one JSON array.")
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
