import ArgumentParser
import ObservableClient

/// `observable history NAME`: the values the server's history holds for a stream.
struct HistoryCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "history",
    abstract: "Print the values the server's history holds for a stream, oldest first.",
    usage: "observable history <name> [--limit <limit>] [--json] [<options>]",
    discussion: """
      Each line is POS NAME VALUE; pass a POS to `observable sub --since` to go on from \
      there. The server keeps history when it runs with --history N; otherwise this fails.
      """)

  @OptionGroup var connection: ConnectionOptions

  @Argument(help: "A stream name, or a pattern for every topic it matches (room.*).")
  var name: String

  @Option(help: "Print at most the last this many values.")
  var limit: Int?

  @Flag(help: "Print each line as received.")
  var json = false

  mutating func validate() throws {
    if let limit, limit < 1 { throw ValidationError("--limit must be at least 1") }
  }

  func run() async throws {
    let client = try await connection.connect()
    defer { client.close() }
    let values = try await Failure.reporting { try await client.history(name, limit: limit) }
    for delivery in values {
      Terminal.print(DeliveryText.line(delivery, json: json, positions: true))
    }
  }
}
