import ArgumentParser
import ObservableClient

/// `observable ping`: checks that the server answers, and how fast.
struct PingCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "ping", abstract: "Ping the server and print the round trip.",
    usage: "observable ping [<options>]")

  @OptionGroup var connection: ConnectionOptions

  func run() async throws {
    let client = try await connection.connect()
    defer { client.close() }
    let elapsed = try await Failure.reporting { try await client.ping() }
    let microseconds =
      elapsed.components.attoseconds / 1_000_000_000_000
      + elapsed.components.seconds * 1_000_000
    Terminal.print("pong from \(client.address) in \(microseconds) µs")
  }
}
