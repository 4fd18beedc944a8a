import Foundation
import Glibc
import TestSupport
import Testing

@testable import ObservableServer

/// The real server's log lines with and without the systemd journal's `JOURNAL_STREAM`.
///
/// systemd sets the variable to the device and inode of the stream it reads; a shell launcher
/// does the same here for the pipe the test reads, then execs the server.
@Suite("Journal priority prefix", .timeLimit(.minutes(1)))
struct JournalPrefixTests {
  /// Execs the server with `JOURNAL_STREAM` naming its own standard error, as systemd would.
  static let journalLauncher = [
    "/bin/sh", "-c", #"JOURNAL_STREAM=$(stat -L -c %d:%i /proc/$$/fd/2) exec "$@""#, "sh",
  ]

  /// The server's complete lines once it logged `listening`; the server is killed when the
  /// value goes away. Shutdown is left to the executable's own tests, so that these depend on
  /// the log format only.
  static func startupLines(launcher: [String] = [], environment: [String: String] = [:])
    throws -> [LogfmtLogHandlerTests.ParsedLine]
  {
    let server = try ServerProcess(
      arguments: ["--listen", "127.0.0.1:0"], launcher: launcher, environment: environment)
    #expect(server.waitForLog("listening"), "\(server.output)")
    let output = server.output
    let end = output.lastIndex(of: "\n").map { output.index(after: $0) } ?? output.startIndex
    return try LogfmtLogHandlerTests.parse(String(output[..<end]))
  }

  @Test func underTheJournalEachLineStartsWithItsPriorityAndHasNoTimestamp() throws {
    let lines = try Self.startupLines(launcher: Self.journalLauncher)
    let listening = try #require(lines.first { $0.value("msg") == "listening" })
    #expect(listening.priority == 5, "startup is a notice")
    #expect(listening.value("address")?.hasPrefix("127.0.0.1:") == true)
    #expect(!lines.isEmpty && lines.allSatisfy { $0.priority != nil && $0.value("ts") == nil })
  }

  @Test func withoutTheJournalLinesStartWithATimestamp() throws {
    let lines = try Self.startupLines(environment: ["JOURNAL_STREAM": ""])
    try #require(lines.contains { $0.value("msg") == "listening" })
    #expect(lines.allSatisfy { $0.priority == nil && $0.pairs.first?.key == "ts" })
  }

  @Test func anInheritedVariableNamingAnotherStreamIsIgnored() throws {
    // A child of a systemd service inherits the variable with its output sent elsewhere.
    let lines = try Self.startupLines(environment: ["JOURNAL_STREAM": "8:12345"])
    try #require(lines.contains { $0.value("msg") == "listening" })
    #expect(lines.allSatisfy { $0.priority == nil && $0.pairs.first?.key == "ts" })
  }
}
