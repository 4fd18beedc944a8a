import Foundation
import Glibc
import Locking
import TestSupport
import Testing

@testable import ObservableServer
@testable import ObservableWire

/// The examples in `Docs/protocol.md`, run against a real server: the greeting as printed, and
/// the Python client of a compressed connection, taken from the document with only the port
/// changed.
@Suite("Docs/protocol.md examples", .timeLimit(.minutes(1)))
struct DocsExampleTests {
  /// The line a server sends is `Greeting.line` (ReleaseVersionTests reads it off a socket).
  @Test func theGreetingIsPrintedAsSent() throws {
    let sent = Greeting.line(version: ObservableServer.version, authRequired: false)
    let text = try DocsCoverageTests.document("protocol.md")
    let shown = try #require(
      text.split(separator: "\n").first { $0.hasPrefix(#"{"hello":"observable-server""#) })
    #expect(String(shown) + "\n" == String(decoding: sent, as: UTF8.self))
  }

  @Test func thePythonCompressionClientReadsTheClock() throws {
    let text = try DocsCoverageTests.document("protocol.md")
    let block = try #require(
      text.components(separatedBy: "```python\n").dropFirst().first?
        .components(separatedBy: "\n```").first)
    #expect(block.contains(#"("127.0.0.1", 7070)"#))
    let server = try TestServer()
    defer { server.stop() }
    let script = block.replacingOccurrences(
      of: #"("127.0.0.1", 7070)"#, with: #"("127.0.0.1", \#(server.port))"#)

    // The example reads until the server closes; it is killed once the clock has ticked (by
    // the test: a signal sent by `timeout` may be blocked in what this process spawns).
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", "-u", "-c", script]
    let collected = Locked(Data())
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    pipe.fileHandleForReading.readabilityHandler = { handle in
      let data = handle.availableData
      if data.isEmpty {
        handle.readabilityHandler = nil
      } else {
        collected.withLock { $0.append(data) }
      }
    }
    try process.run()
    let ticked = eventually(timeout: .seconds(10)) {
      collected.withLock { String(decoding: $0, as: UTF8.self) }
        .contains(#"{"stream":"clock","value""#)
    }
    kill(process.processIdentifier, SIGKILL)
    process.waitUntilExit()
    let output = collected.withLock { String(decoding: $0, as: UTF8.self) }
    #expect(ticked, "\(output)")
    #expect(output.contains(#"{"ok":true,"op":"subscribe","stream":"clock"}"#), "\(output)")
    #expect(output.contains(#"{"stream":"clock","value":"20"#), "\(output)")
    #expect(!output.contains("Traceback"), "\(output)")
  }
}
