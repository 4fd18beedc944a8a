import Foundation
import TestSupport
import XCTest

/// A NATS server that is busy is not taken for a dead one: its PONG may wait behind the
/// deliveries it queued first, but those deliveries are heard. One that goes silent still is.
final class ClusterBusyServerTests: XCTestCase {
  /// A peer sends MSG frames for 5 s and holds every PONG (the link pings each second and,
  /// before, declared the server dead at the third tick after two unanswered PINGs), then goes
  /// silent: the node stays on the first connection while it hears messages, and leaves the
  /// silent one by its pings.
  func testNodeKeepsABusyNATSServerAndLeavesASilentOne() throws {
    try RequiredTool.require(ChildProcess.isInstalled("python3"), "python3")
    let busy = 5
    let peer = try ChildProcess(
      tool: "python3",
      [TestScripts.url("nats_busy_peer.py").path, "--busy", "\(busy)", "--duration", "40"])
    defer { peer.signal(SIGKILL) }
    guard peer.wait(until: { $0.lines.contains { $0.hasPrefix("port ") } }),
      let port = peer.lines.first(where: { $0.hasPrefix("port ") })?.dropFirst(5)
    else { return XCTFail("the peer did not listen: \(peer.stderr)") }

    let node = try ServerProcess(
      arguments: ["--listen", "127.0.0.1:0", "--cluster", "nats://127.0.0.1:\(port)"])
    defer {
      node.signal(SIGKILL)
      _ = node.waitForExit(timeout: .seconds(5))
    }
    XCTAssertTrue(peer.wait(until: { $0.lines.contains("connection 1") }), peer.stderr)

    XCTAssertTrue(
      peer.wait(for: .seconds(Double(busy) + 10)) { $0.stdout.contains("busy over") },
      peer.stdout + peer.stderr)
    let over = peer.lines.first { $0.hasPrefix("busy over") } ?? ""
    // Pings went out and none was answered: the old check would have left the server.
    let pings = over.split(separator: " ").first { $0.hasPrefix("pings=") }
      .flatMap { Int($0.dropFirst(6)) }
    XCTAssertGreaterThanOrEqual(pings ?? 0, 3, over)
    XCTAssertTrue(over.hasSuffix("connections=1"), "\(over)\n\(node.output)")
    XCTAssertFalse(node.output.contains("cluster connection lost"), node.output)

    // Silent now: found by two unanswered pings, 1 s apart, and connected to again.
    XCTAssertTrue(
      peer.wait(for: .seconds(15)) { $0.lines.contains("connection 2") },
      peer.stdout + "\n" + node.output)
    XCTAssertTrue(node.output.contains("stopped answering PING"), node.output)
  }
}
