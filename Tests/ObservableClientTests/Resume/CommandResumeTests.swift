import Foundation
import TestSupport
import Testing

/// `observable history`, `observable sub --pos` and `--since`, and the gap notice on stderr,
/// as real processes against a real server process.
@Suite("The observable command with server history", .timeLimit(.minutes(1)))
struct CommandResumeTests {
  /// A server process keeping `history` values a topic, with `values` published to `stream`.
  static func server(history: Int, stream: String, values: ClosedRange<Int>) throws -> (
    ServerProcess, UInt16
  ) {
    let port = try freeLoopbackPort()
    let server = try ServerProcess(port: port, arguments: ["--history", "\(history)"])
    for value in values {
      #expect(try CommandRun(["pub", stream, "\(value)"], port: port).status == 0)
    }
    return (server, port)
  }

  @Test("history prints POS NAME VALUE, oldest first; sub --since goes on after a POS")
  func historyThenSince() throws {
    let (server, port) = try Self.server(history: 10, stream: "h", values: 1...4)
    let history = try CommandRun(["history", "h", "--limit", "3"], port: port)
    #expect(history.status == 0)
    #expect(
      history.lines.map { $0.split(separator: " ").dropFirst().joined(separator: " ") } == [
        "h 2", "h 3", "h 4",
      ])
    let position = String(history.lines[0].split(separator: " ")[0])
    let sub = try CommandRun(
      ["sub", "h", "--since", position, "--count", "2", "--pos"], port: port)
    #expect(sub.status == 0)
    #expect(sub.lines == Array(history.lines.dropFirst()))
    #expect(sub.stderr.isEmpty)
    let json = try CommandRun(["history", "h", "--limit", "1", "--json"], port: port)
    #expect(
      json.lines == [
        #"{"stream":"h","value":4,"pos":"\#(history.lines[2].split(separator: " ")[0])"}"#
      ])
    _ = server
  }

  @Test("sub --since a position history no longer holds: a notice on stderr, then the values")
  func gapNotice() throws {
    let (server, port) = try Self.server(history: 2, stream: "g", values: 1...3)
    let first = try CommandRun(["history", "g"], port: port)
    let position = String(first.lines[0].split(separator: " ")[0])
    for value in 4...5 { _ = try CommandRun(["pub", "g", "\(value)"], port: port) }
    let sub = try CommandRun(["sub", "g", "--since", position, "--count", "2"], port: port)
    #expect(sub.status == 0)
    #expect(sub.lines == ["g 4", "g 5"])
    #expect(
      sub.stderr
        == "observable: g resumed after \(position) with values lost (the server's history no longer reaches back that far)\n"
    )
    _ = server
  }

  @Test("without server history: history fails, sub --since warns, a bad --since is usage")
  func withoutHistory() async throws {
    let port = try freeLoopbackPort()
    let server = try ServerProcess(port: port)
    let history = try CommandRun(["history", "h"], port: port)
    #expect(history.status == 1)
    #expect(history.stderr.contains("unsupported"))
    #expect(try CommandRun(["sub", "h", "--since", "nope"], port: port).status == 64)

    let sub = try ChildProcess(
      "observable", ["sub", "h", "--since", "0000abcd-7", "--count", "1", "--pos"],
      environment: ["OBSERVABLE_SERVER": "127.0.0.1:\(port)"])
    #expect(
      await eventually {
        (try? CommandRun(["pub", "h", "1"], port: port).stdout) == "1\n"
      })
    #expect(sub.waitForExit() == 0)
    #expect(sub.lines == ["- h 1"])
    #expect(
      sub.stderr
        == "observable: h resumed after 0000abcd-7 with values lost (the server keeps no history)\n"
    )
    _ = server
  }
}
