import Foundation
import TestSupport
import XCTest

@testable import ObservableServer

/// A NATS server that stops answering (SIGSTOP: its sockets stay open) is found by pings and
/// left for another within seconds.
final class ClusterStoppedServerTests: XCTestCase {
  func testNodeLeavesAStoppedNATSServerWithinSeconds() throws {
    let feed = try FeedAcrossNodes(self)
    let (nats, nodeA, publisher, subscriber) = (
      feed.nats, feed.nodeA, feed.publisher, feed.subscriber
    )

    let stopped = ContinuousClock.now
    nats.signal(0, SIGSTOP)
    defer { nats.signal(0, SIGCONT) }
    XCTAssertTrue(
      eventually(timeout: .seconds(15)) {
        nodeA.process.output.contains("stopped answering PING")
          && nodeA.process.output.components(separatedBy: "cluster connected").count > 2
      }, nodeA.process.output)
    let moved = ContinuousClock.now - stopped
    try subscriber.waitForFlow(from: publisher, stream: "feed", timeout: .seconds(10))
    print("node moved to another NATS server \(moved) after SIGSTOP")
    // The link moves in 2 to 3.2 s (pings 1 s apart, dead after two unanswered, then at once
    // to another server; measured 2.6 to 2.8 s). Before, it took 6 s at least (4 to 6 s of
    // pings 2 s apart, then the stopped server's 2 s handshake timeout, as the pool went back
    // to it), so the bound is both loose for a loaded machine and tighter than the old figure.
    XCTAssertLessThan(moved, .seconds(6), nodeA.process.output)
  }
}
