import Foundation
import TestSupport
import XCTest

/// ``ClusterHistoryResumeTests`` with the cuts of ``HistoryResumeLinkTests``: the subscriber,
/// in a network namespace of its own, moves between two nodes on every cut, and half of its 50
/// cuts are a reset and half its link going down, so that no FIN and no RST reach the node it
/// leaves. The nodes and NATS run on the host, on loopback, the nodes also on the host's end
/// of the link; the publisher writes over a Unix socket of node A, which no link cut reaches.
final class ClusterHistoryResumeLinkTests: XCTestCase {
  /// Values per topic: 12,000 in all, four seconds at the rate, so that cuts fall while the
  /// publisher writes as well as after, and enough lines for 50 cuts of 20 to 200 lines each
  /// (8,000 ran out at 47: a link cut takes the lines read before the link goes silent too).
  static let values = 600
  static let rate = 3000

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
  /// every resume says `recovered:true`, on either node, after a reset or a vanished link.
  private func everyValueOnceInOrder(_ transport: String, _ mode: String) throws {
    let run = try resume(transport, mode, history: 2 * Self.values)
    XCTAssertEqual(run["received"] as? Int, 20 * Self.values, "\(run)")
    XCTAssertEqual(run["recovered_false"] as? Int, 0, "\(run)")
    // The script's seed draws 27 link cuts of the 50; 10 leaves room should its draws change.
    XCTAssertGreaterThanOrEqual(run["link_cuts"] as? Int ?? 0, 10, "\(run)")
    XCTAssertEqual((run["epochs"] as? [String])?.count, 1, "\(run)")
  }

  /// With two values a topic, resumes say `recovered:false` and the script sees the gaps after
  /// them; no gap goes unreported.
  private func tooSmallIsReported(_ transport: String, _ mode: String) throws {
    let run = try resume(transport, mode, history: 2)
    XCTAssertGreaterThan(run["recovered_false"] as? Int ?? 0, 0, "\(run)")
    XCTAssertGreaterThan(run["reported_gaps"] as? Int ?? 0, 0, "\(run)")
  }

  /// Runs the script in the link's client namespace, the subscriber on node B, then A, then
  /// B…, and checks what every run must show: 50 cuts, enough of them link cuts, the
  /// subscriber on both nodes, and no loss, duplicate or disorder that went unreported.
  private func resume(_ transport: String, _ mode: String, history: Int) throws -> [String: Any] {
    try RequiredTool.require(
      TestNetwork.isAvailable, "network namespaces (root, and ip from iproute2)")
    let network = try TestNetwork(server: .testProcess)
    // A node drops a vanished subscriber after 5 s without an answer, within the run.
    let cluster = try HistoryNodes(
      self, history: history, http: true, link: network, extra: ["--dead-peer-timeout", "5"])
    let ports = cluster.nodes.reversed().map { "\($0.port)" }.joined(separator: ",")
    let httpPorts = cluster.httpPorts.reversed().map { "\($0)" }.joined(separator: ",")
    // As in HistoryResumeLinkTests: a small receive buffer, so that a cut connection holds
    // few lines, and 0.1 s of silence to give it up.
    let run = try HistoryResumeScript.run(
      [
        "--host", network.serverAddress, "--port", "\(cluster.nodes[0].port)",
        "--publisher-unix", cluster.socketPath ?? "", "--subscriber-ports", ports,
        "--subscriber-http-ports", httpPorts, "--transport", transport, "--mode", mode,
        "--values", "\(Self.values)", "--rate", "\(Self.rate)", "--kills", "50",
        "--link-down", network.clientLinkCommand("down"),
        "--link-up", network.clientLinkCommand("up"), "--pause", "0.05",
        "--receive-buffer", "4096", "--silence", "0.1",
      ], timeout: .seconds(120), launcher: network.launcher(in: network.clientNamespace))
    print("cluster link resume \(transport) \(mode) history \(history): \(run)")
    if history > 2 { XCTAssertEqual(run["kills"] as? Int, 50, "\(run)") }
    XCTAssertGreaterThanOrEqual(run["link_cuts"] as? Int ?? 0, 3, "\(run)")
    for key in ["silent_gaps", "duplicates", "disorder"] {
      XCTAssertEqual((run[key] as? [Any])?.count, 0, "\(key): \(run)")
    }
    XCTAssertEqual((run["by_port"] as? [String: Int])?.count, 2, "\(run)")
    withExtendedLifetime(network) {}
    return run
  }
}
