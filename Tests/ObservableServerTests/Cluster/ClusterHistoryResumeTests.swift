import Foundation
import TestSupport
import XCTest

/// The resume test of ``HistoryResumeRaceTests`` at full load on a cluster
/// (`Scripts/history_resume.py`): a publisher on node A writes 10,000 values a second over 20
/// topics while a subscriber, by exact names or by a pattern, over TCP or WebSocket, is reset
/// 50 times at random moments and resumes with `since` each time on the other node. Real
/// `nats-server -js` processes (three, clustered) and two nodes, killed when the test ends.
final class ClusterHistoryResumeTests: XCTestCase {
  /// Values per topic: 20,000 in all, two seconds of publishing at the rate.
  static let values = 1000
  /// Lines a connection reads before its cut, so that 50 cuts span the whole run.
  static let linesBetweenCuts = (40, 700)

  func testExactNamesOverTCPSeeEveryValueOnceInOrder() throws {
    try everyValueOnceInOrder("tcp", "exact")
  }

  func testAPatternOverTCPSeesEveryValueOnceInOrder() throws {
    try everyValueOnceInOrder("tcp", "pattern")
  }

  func testExactNamesOverWebSocketSeeEveryValueOnceInOrder() throws {
    try everyValueOnceInOrder("ws", "exact")
  }

  func testAPatternOverWebSocketSeesEveryValueOnceInOrder() throws {
    try everyValueOnceInOrder("ws", "pattern")
  }

  func testTooSmallAHistoryOverTCPSaysRecoveredFalse() throws {
    try tooSmallIsReported("tcp", "pattern")
  }

  func testTooSmallAHistoryOverWebSocketSaysRecoveredFalse() throws {
    try tooSmallIsReported("ws", "exact")
  }

  /// With a history that holds the whole run, every value arrives once and in order, and
  /// every resume says `recovered:true`, on either node.
  private func everyValueOnceInOrder(_ transport: String, _ mode: String) throws {
    let cluster = try HistoryNodes(self, history: 2 * Self.values, http: true)
    let run = try resume(cluster, transport, mode, extra: [])
    XCTAssertEqual(run["received"] as? Int, 20 * Self.values, "\(run)")
    XCTAssertEqual(run["kills"] as? Int, 50, "\(run)")
    XCTAssertEqual(run["recovered_false"] as? Int, 0, "\(run)")
    expectNoLossDuplicateOrDisorder(run)
    XCTAssertEqual((run["epochs"] as? [String])?.count, 1, "\(run)")
  }

  /// With two values a topic and pauses before reconnecting, resumes say `recovered:false`,
  /// a consumer that falls behind sends gap notices, and the script sees the gaps after them;
  /// no gap goes unreported.
  private func tooSmallIsReported(_ transport: String, _ mode: String) throws {
    // Found by this test: a subscription with positions is a JetStream consumer, and one that
    // lagged more than `--history` values of a topic skipped the values JetStream dropped
    // meanwhile with nothing to say so (r.0 went 0, 2 on the first connection, before any
    // resume). Now a gap notice comes before the first value after such a gap.
    let cluster = try HistoryNodes(self, history: 2, http: true)
    let run = try resume(cluster, transport, mode, extra: ["--pause", "0.05"])
    XCTAssertGreaterThan(run["recovered_false"] as? Int ?? 0, 0, "\(run)")
    XCTAssertGreaterThan(run["reported_gaps"] as? Int ?? 0, 0, "\(run)")
    // Two values a topic are 4 ms at this rate: every consumer falls that far behind.
    XCTAssertGreaterThan(run["gap_notices"] as? Int ?? 0, 0, "\(run)")
    expectNoLossDuplicateOrDisorder(run)
  }

  private func expectNoLossDuplicateOrDisorder(
    _ run: [String: Any], file: StaticString = #filePath, line: UInt = #line
  ) {
    for key in ["silent_gaps", "duplicates", "disorder"] {
      XCTAssertEqual((run[key] as? [Any])?.count, 0, "\(key): \(run)", file: file, line: line)
    }
    // The subscriber moved: both nodes served some of its connections.
    XCTAssertEqual((run["by_port"] as? [String: Int])?.count, 2, "\(run)", file: file, line: line)
  }

  /// Runs the script: the publisher on node A, the subscriber on node B, then A, then B…
  private func resume(
    _ cluster: HistoryNodes, _ transport: String, _ mode: String, extra: [String]
  ) throws -> [String: Any] {
    let ports = cluster.nodes.reversed().map { "\($0.port)" }.joined(separator: ",")
    let httpPorts = cluster.httpPorts.reversed().map { "\($0)" }.joined(separator: ",")
    let run = try HistoryResumeScript.run(
      [
        "--port", "\(cluster.nodes[0].port)", "--http-port", "\(cluster.httpPorts[0])",
        "--subscriber-ports", ports,
        "--subscriber-http-ports", httpPorts, "--transport", transport, "--mode", mode,
        "--values", "\(Self.values)", "--rate", "10000", "--kills", "50",
        "--min-lines", "\(Self.linesBetweenCuts.0)", "--max-lines", "\(Self.linesBetweenCuts.1)",
      ] + extra, timeout: .seconds(120))
    print("cluster resume \(transport) \(mode): \(run)")
    return run
  }
}
