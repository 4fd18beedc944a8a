import Foundation
import TestSupport
import Testing

@testable import ObservableServer

/// A publisher on 20 topics and a subscriber cut off by resets at random moments, resuming
/// with `since` each time (`Scripts/history_resume.py`): by exact names and by a pattern, over
/// TCP and WebSocket.
@Suite("Resume across random resets", .serialized, .timeLimit(.minutes(3)))
struct HistoryResumeRaceTests {
  static let cases = [("tcp", "exact"), ("tcp", "pattern"), ("ws", "exact"), ("ws", "pattern")]

  @Test("every value once and in order when history is big enough", arguments: cases)
  func everyValueOnceInOrder(_ transport: String, _ mode: String) throws {
    let server = try TestServer.withHistory(2000, http: true)
    defer { server.stop() }
    // 200 values a topic, a connection reset after 10 to 100 of them: as many resets as 400
    // values reset after 20 to 200, in half the time (the resets are what is tested).
    let run = try resume(
      server, transport, mode, values: 200, extra: ["--min-lines", "10", "--max-lines", "100"])
    #expect(run["received"] as? Int == 20 * 200, "\(run)")
    #expect((run["connections"] as? Int ?? 0) >= 30, "\(run)")
    #expect(run["recovered_false"] as? Int == 0, "\(run)")
    #expect((run["silent_gaps"] as? [Any])?.isEmpty == true, "\(run)")
    #expect((run["duplicates"] as? [Any])?.isEmpty == true, "\(run)")
    #expect((run["disorder"] as? [Any])?.isEmpty == true, "\(run)")
    #expect(run["epochs"] as? [String] == ["0000abcd"], "\(run)")
  }

  @Test("a history too small says recovered:false, and never loses silently", arguments: cases)
  func tooSmallIsReported(_ transport: String, _ mode: String) throws {
    let server = try TestServer.withHistory(2, http: true)
    defer { server.stop() }
    let run = try resume(server, transport, mode, values: 200, extra: ["--pause", "0.05"])
    #expect((run["recovered_false"] as? Int ?? 0) > 0, "\(run)")
    #expect((run["reported_gaps"] as? Int ?? 0) > 0, "\(run)")
    #expect((run["silent_gaps"] as? [Any])?.isEmpty == true, "\(run)")
    #expect((run["duplicates"] as? [Any])?.isEmpty == true, "\(run)")
    #expect((run["disorder"] as? [Any])?.isEmpty == true, "\(run)")
  }

  private func resume(
    _ server: TestServer, _ transport: String, _ mode: String, values: Int, extra: [String]
  ) throws -> [String: Any] {
    try HistoryResumeScript.run(
      [
        "--port", "\(server.port)", "--http-port", "\(server.httpPort)", "--transport",
        transport, "--mode", mode, "--values", "\(values)",
      ] + extra, timeout: .seconds(90))
  }
}
