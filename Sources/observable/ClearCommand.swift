import ArgumentParser
import ObservableClient

/// `observable clear NAME`: forgets a stream's retained value.
struct ClearCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "clear",
    abstract: "Forget a stream's retained value.",
    usage: "observable clear <name> [<options>]",
    discussion: """
      New subscribers then get nothing first, until the next retained publish. Prints true \
      when the stream had a retained value, false when it had none.
      """)

  @OptionGroup var connection: ConnectionOptions

  @Argument(help: "The stream whose retained value to forget.")
  var name: String

  func run() async throws {
    let client = try await connection.connect()
    defer { client.close() }
    let cleared = try await Failure.reporting { try await client.clear(name) }
    Terminal.print("\(cleared)")
  }
}
