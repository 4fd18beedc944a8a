import Foundation
import TestSupport
import XCTest

@testable import ObservableServer

/// Several `observable-server` processes joined through a real three-node NATS cluster:
/// values and retained values cross nodes, once each.
final class ClusterFlowTests: XCTestCase {
  func testPublishOnOneNodeReachesEveryNodeOnce() throws {
    let nats = try NATSClusterFixture(self)
    let nodes = try (0..<3).map { try ClusterNode(self, urls: [nats.url($0)]) }
    let publisher = try nodes[0].client()
    let local = try nodes[0].client()
    let exact = try nodes[1].client()
    let pattern = try nodes[2].client()
    let both = try nodes[2].client()
    try local.request(#"{"op":"subscribe","stream":"room.1"}"#)
    try exact.request(#"{"op":"subscribe","stream":"room.1"}"#)
    try pattern.request(#"{"op":"subscribe","stream":"room.*"}"#)
    try both.request(#"{"op":"subscribe","stream":"room.1"}"#)
    try both.request(#"{"op":"subscribe","stream":"room.>"}"#)
    try exact.waitForFlow(from: publisher, stream: "room.1")
    try pattern.waitForFlow(from: publisher, stream: "room.1", sub: "room.*")
    try both.waitForFlow(from: publisher, stream: "room.1", sub: "room.>")

    let reply = try publisher.request(#"{"op":"publish","stream":"room.1","value":{"n":1}}"#)
    XCTAssertEqual(reply["receivers"] as? Int, 1, "receivers counts this node's only")
    try publisher.request(#"{"op":"publish","stream":"room.1","value":"end"}"#)

    let expectations: [(LineClient, [String])] = [
      (local, [""]), (exact, [""]), (pattern, ["room.*"]), (both, ["", "room.>"]),
    ]
    for (client, subs) in expectations {
      // Every value each subscription got, in order, up to the end marker of each.
      var seen: [String: [String]] = [:]
      while subs.contains(where: { seen[$0]?.last != "\"end\"" }) {
        let line = try client.read(until: { $0["stream"] as? String == "room.1" })
        guard let value = line["value"], !isWarmUp(value) else { continue }
        let text = String(
          decoding: try JSONSerialization.data(withJSONObject: value, options: .fragmentsAllowed),
          as: UTF8.self)
        seen[line["sub"] as? String ?? "", default: []].append(text)
      }
      for sub in subs {
        XCTAssertEqual(seen[sub], [#"{"n":1}"#, #""end""#], "sub \(sub.isEmpty ? "exact" : sub)")
      }
    }
  }

  func testRetainedValueComesFirstOnAnotherNode() throws {
    let nats = try NATSClusterFixture(self)
    let nodeA = try ClusterNode(self, urls: [nats.url(0)])
    let nodeC = try ClusterNode(self, urls: [nats.url(2)])
    let publisher = try nodeA.client()
    for (name, value) in [("door.a", 1), ("door.b", 2), ("hall.c", 3)] {
      let reply = try publisher.request(
        #"{"op":"publish","stream":"\#(name)","value":\#(value),"retain":true,"id":1}"#,
        timeout: .seconds(15))
      XCTAssertEqual(reply["ok"] as? Bool, true, "\(reply)")
    }

    let exact = try nodeC.client()
    try exact.request(#"{"op":"subscribe","stream":"door.a"}"#)
    XCTAssertEqual(try exact.nextValue("door.a") as? Int, 1)

    let pattern = try nodeC.client()
    try pattern.request(#"{"op":"subscribe","stream":"door.*"}"#)
    var retained: [String: Int] = [:]
    for _ in 0..<2 {
      let line = try pattern.read(until: { $0["sub"] as? String == "door.*" })
      retained[line["stream"] as? String ?? ""] = line["value"] as? Int
    }
    XCTAssertEqual(retained, ["door.a": 1, "door.b": 2])

    // Then live values, once: the next value after the retained ones is the new one.
    try publisher.request(#"{"op":"publish","stream":"door.b","value":20,"retain":true}"#)
    XCTAssertEqual(try pattern.nextValue("door.b", sub: "door.*") as? Int, 20)
    try publisher.request(#"{"op":"publish","stream":"door.b","value":21}"#)
    XCTAssertEqual(try pattern.nextValue("door.b", sub: "door.*") as? Int, 21)

    // Cleared on one node, gone for new subscribers on every node.
    let cleared = try publisher.request(#"{"op":"clear","stream":"door.a"}"#)
    XCTAssertEqual(cleared["cleared"] as? Bool, true, "\(cleared)")
    let late = try nodeC.client()
    try late.request(#"{"op":"subscribe","stream":"door.a"}"#)
    let first = try late.waitForFlow(from: publisher, stream: "door.a")
    XCTAssertTrue(isWarmUp(first), "a cleared value came: \(first)")
    let list = try late.request(#"{"op":"list","stream":"door.a"}"#)
    XCTAssertEqual((list["streams"] as? [[String: Any]])?.first?["local_only"] as? Bool, false)
  }

  func testKilledNodeLeavesOtherNodesWorking() throws {
    let nats = try NATSClusterFixture(self)
    let nodes = try (0..<3).map { try ClusterNode(self, urls: [nats.url($0)]) }
    let publisher = try nodes[0].client()
    let subscriber = try nodes[1].client()
    let doomed = try nodes[2].client()
    try subscriber.request(#"{"op":"subscribe","stream":"feed"}"#)
    try doomed.request(#"{"op":"subscribe","stream":"feed"}"#)
    try subscriber.waitForFlow(from: publisher, stream: "feed")

    nodes[2].process.signal(SIGKILL)
    XCTAssertNotNil(nodes[2].process.waitForExit(timeout: .seconds(5)))
    for value in 0..<20 {
      try publisher.request(#"{"op":"publish","stream":"feed","value":\#(value)}"#)
    }
    for value in 0..<20 {
      XCTAssertEqual(try subscriber.nextValue("feed", skipping: isWarmUp) as? Int, value)
    }
  }
}
