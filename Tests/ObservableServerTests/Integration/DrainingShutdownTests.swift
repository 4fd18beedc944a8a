import Foundation
import Glibc
import TestSupport
import Testing

@testable import ObservableServer

/// At SIGTERM the server drains: replies and values already queued reach their clients, each
/// connection ends with a FIN, and none with a reset that would destroy what a client has not
/// read yet.
@Suite("Draining shutdown", .serialized, .timeLimit(.minutes(2)))
struct DrainingShutdownTests {
  @Test func aFloodedServerEndsEveryConnectionCleanlyAtSigterm() throws {
    let port = try freeLoopbackPort()
    let server = try ServerProcess(arguments: [
      // Python clients on a loaded machine can take more than the default second to read to
      // the end and close; the grace bounds the shutdown, and the test checks that bound.
      "--listen", "127.0.0.1:\(port)", "--log-level", "warning", "--shutdown-grace", "15",
    ])
    #expect(eventually { (try? LineClient(port: port)) != nil })
    let flood = Process()
    flood.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    flood.arguments = [
      "python3", TestScripts.url("shutdown_flood.py").path, "--port", "\(port)",
      "--publishers", "50",
    ]
    let output = Pipe()
    flood.standardOutput = output
    try flood.run()
    defer {
      if flood.isRunning { kill(flood.processIdentifier, SIGKILL) }
      flood.waitUntilExit()
    }
    let lines = LineReader(output.fileHandleForReading)
    #expect(lines.next(timeout: .seconds(20)) == "ready")
    // A client still in the listener's backlog at SIGTERM is reset when the listener closes;
    // this test is about the connections the server holds, so it waits for all of them.
    let probe = try LineClient(port: port)
    #expect(eventually(timeout: .seconds(20)) { (try? probe.stats()["connections"]) == 52 })
    probe.close()
    let stopping = ContinuousClock.now
    server.signal(SIGTERM)
    #expect(server.waitUntilExited(timeout: .seconds(20)))
    #expect(ContinuousClock.now - stopping < .seconds(16), "the README promises the grace + 1 s")
    #expect(server.waitForExit(timeout: .seconds(1)) == 0, "\(server.output)")
    let report = try #require(lines.next(timeout: .seconds(20)))
    let parsed = try JSONSerialization.jsonObject(with: Data(report.utf8)) as? [String: Int]
    let result = try #require(parsed, "\(report)")
    #expect(result["reset"] == 0, "\(report)")
    #expect(result["eof"] == 51, "\(report)")
    #expect(result["unconfirmed"] == 0, "\(report)")
    #expect((result["values"] ?? 0) > 0, "\(report)")
  }
}

/// Lines from a pipe, read on a thread of its own, so a test can wait for one with a deadline.
private final class LineReader: @unchecked Sendable {
  // Unchecked: `lines` is guarded by `lock`; the handle is read by the reading thread only.
  private let lock = NSLock()
  private var lines: [String] = []

  init(_ handle: FileHandle) {
    Thread { [self] in
      var pending = Data()
      while true {
        let chunk = handle.availableData
        if chunk.isEmpty { return }
        pending.append(chunk)
        while let newline = pending.firstIndex(of: 0x0A) {
          let line = String(decoding: pending[..<newline], as: UTF8.self)
          pending.removeSubrange(...newline)
          lock.lock()
          lines.append(line)
          lock.unlock()
        }
      }
    }.start()
  }

  /// The next line, waiting up to `timeout`.
  func next(timeout: Duration) -> String? {
    var line: String?
    _ = eventually(timeout: timeout) {
      lock.lock()
      defer { lock.unlock() }
      guard !lines.isEmpty else { return false }
      line = lines.removeFirst()
      return true
    }
    return line
  }
}
