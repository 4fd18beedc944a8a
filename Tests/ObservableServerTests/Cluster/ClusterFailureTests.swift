import Foundation
import TestSupport
import XCTest

@testable import ObservableServer

/// NATS servers dying under a cluster of `observable-server` nodes.
final class ClusterFailureTests: XCTestCase {
  func testNodeReconnectsToAnotherNATSServerWhenItsOwnDies() throws {
    let httpPort = try freeLoopbackPort()
    let feed = try FeedAcrossNodes(self, extraForNodeA: ["--http", "127.0.0.1:\(httpPort)"])
    let (nats, publisher, subscriber) = (feed.nats, feed.publisher, feed.subscriber)

    let killed = ContinuousClock.now
    nats.kill(0)
    // Node A learnt the other servers from INFO's connect_urls and goes on with one of them.
    try subscriber.waitForFlow(from: publisher, stream: "feed", timeout: .seconds(5))
    XCTAssertLessThan(ContinuousClock.now - killed, .seconds(5))

    let stats = try publisher.request(#"{"op":"subscribe","stream":"stats"}"#)
    XCTAssertEqual(stats["ok"] as? Bool, true)
    let line = try publisher.read(until: { $0["stream"] as? String == "stats" })
    let cluster = (line["value"] as? [String: Any])?["cluster"] as? [String: Any]
    XCTAssertEqual(cluster?["connected"] as? Bool, true)
    XCTAssertGreaterThanOrEqual(cluster?["reconnects"] as? Int ?? 0, 1)
    XCTAssertNotEqual(cluster?["server"] as? String, nats.url(0))
    let metrics = try metricsText(port: httpPort)
    XCTAssertTrue(metrics.contains("observable_server_cluster_connected 1\n"), metrics)
    XCTAssertNotNil(
      metrics.range(
        of: #"observable_server_cluster_reconnects_total [1-9]"#, options: .regularExpression))
  }

  func testSilentNATSServerIsDetectedByPingsAndReplaced() throws {
    let feed = try FeedAcrossNodes(self)
    let (nats, nodeA, publisher, subscriber) = (
      feed.nats, feed.nodeA, feed.publisher, feed.subscriber
    )

    // A stopped process keeps its sockets open: only unanswered pings (1 s apart, two missed)
    // show it is gone.
    let stopped = ContinuousClock.now
    nats.signal(0, SIGSTOP)
    // Waited for first: a warm-up value still in flight could make the flow look resumed.
    XCTAssertTrue(
      eventually(timeout: .seconds(15)) {
        nodeA.process.output.contains("stopped answering PING")
      }, nodeA.process.output)
    try subscriber.waitForFlow(from: publisher, stream: "feed", timeout: .seconds(15))
    XCTAssertLessThan(ContinuousClock.now - stopped, .seconds(10))
  }

  func testRetainedPublishAfterLeaderDiesSucceedsOrFailsButNeverHangs() throws {
    let nats = try NATSClusterFixture(self)
    let nodes = try (0..<3).map { try ClusterNode(self, urls: [nats.url($0)]) }
    let first = try nodes[0].client()
    let reply = try first.request(
      #"{"op":"publish","stream":"door","value":1,"retain":true}"#, timeout: .seconds(15))
    XCTAssertEqual(reply["ok"] as? Bool, true, "\(reply)")
    guard let leader = nats.streamLeader("OBS_RETAINED") else {
      return XCTFail("no leader for the retained stream")
    }
    nats.kill(leader)
    let survivor = try nodes[(leader + 1) % 3].client()
    let started = ContinuousClock.now
    let after = try survivor.request(
      #"{"op":"publish","stream":"door","value":2,"retain":true,"id":2}"#, timeout: .seconds(15))
    XCTAssertLessThan(ContinuousClock.now - started, .seconds(12), "bounded by the store timeout")
    if after["ok"] as? Bool != true {
      XCTAssertEqual((after["error"] as? [String: Any])?["code"] as? String, "unavailable")
    }
    // Once a new leader is elected, retained publishes succeed again.
    var stored = after["ok"] as? Bool == true
    let deadline = ContinuousClock.now + .seconds(15)
    while !stored && ContinuousClock.now < deadline {
      let retry = try survivor.request(
        #"{"op":"publish","stream":"door","value":3,"retain":true}"#, timeout: .seconds(15))
      stored = retry["ok"] as? Bool == true
    }
    XCTAssertTrue(stored, "no retained publish succeeded after the election")
  }

  /// The `/metrics` page of a node, through curl, bounded in time.
  private func metricsText(port: UInt16) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
    process.arguments = ["-s", "-m", "5", "http://127.0.0.1:\(port)/metrics"]
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return String(decoding: data, as: UTF8.self)
  }
}
