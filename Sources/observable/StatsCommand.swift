import ArgumentParser
import Foundation
import ObservableClient

/// `observable stats`: one snapshot of the server's counters.
struct StatsCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "stats", abstract: "Print one snapshot of the server's counters.")

  @OptionGroup var connection: ConnectionOptions

  @Flag(help: "print the snapshot as the JSON the server sent")
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
    let object = (try? JSONSerialization.jsonObject(with: snapshot.value)) as? [String: Any] ?? [:]
    let rows = object.keys.sorted().map { [$0, "\(object[$0] ?? "")"] }
    for line in Table.lines(rows) { Terminal.print(line) }
  }
}
