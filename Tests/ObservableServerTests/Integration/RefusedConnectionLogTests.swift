import Foundation
import Glibc
import TestSupport
import Testing

@testable import ObservableLogging
@testable import ObservableServer

/// A flood of connections past `--max-connections` fills the log with a few lines a second
/// and a count, not one line per refused connection.
@Suite("Refused connections in the log", .timeLimit(.minutes(2)))
struct RefusedConnectionLogTests {
  static let refused = "connection refused: too many connections"

  @Test func twoThousandRefusedConnectionsLogAFewLinesAndACount() throws {
    let server = try ServerProcess(arguments: [
      "--listen", "127.0.0.1:0", "--max-connections", "2", "--log-level", "notice",
    ])
    let port = try #require(server.listeningPort(), "\(server.output)")
    let held = try (0..<2).map { _ in try LineClient(port: port) }
    defer { for client in held { client.close() } }

    let attempts = 2_000
    let start = ContinuousClock.now
    for _ in 0..<attempts {
      let client = try LineClient(port: port, readGreeting: false)
      // The refusal notice, then the close: the server has logged (or counted) it by then.
      #expect(client.waitForClose(timeout: .seconds(5)))
      client.close()
    }
    let seconds = Double((ContinuousClock.now - start).components.seconds) + 1

    func logged() -> (lines: Int, counted: Int) {
      let lines = server.output.split(separator: "\n")
      let refusedLines = lines.filter { $0.contains(Self.refused) }.count
      let counted = lines.filter { $0.contains("warnings not logged") }
        .filter { $0.contains(#"kind="connection refused""#) }
        .compactMap { line in
          line.split(separator: " ").first { $0.hasPrefix("count=") }.flatMap {
            Int($0.dropFirst("count=".count))
          }
        }
        .reduce(0, +)
      return (refusedLines, counted)
    }
    // The last window's count comes out when the window ends, with no further refusal.
    #expect(
      eventually(timeout: .seconds(5)) { logged().lines + logged().counted == attempts },
      "\(logged()) of \(attempts)")
    let (lines, _) = logged()
    // Five a second per kind; the burst spans a few windows on a busy machine.
    #expect(lines <= RepeatedWarnings.perSecond * (Int(seconds) + 1), "\(lines) in \(seconds) s")
  }
}
