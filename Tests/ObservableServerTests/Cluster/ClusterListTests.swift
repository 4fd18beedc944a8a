import Foundation
import TestSupport
import XCTest

@testable import ObservableServer

/// `list` on a clustered server names the topics whose only trace is a retained value in
/// JetStream, on every node, with the paging of a single node.
final class ClusterListTests: XCTestCase {
  func testRetainedOnlyTopicsAreListedOnEveryNode() throws {
    let nats = try NATSClusterFixture(self)
    let nodeA = try ClusterNode(self, urls: [nats.url(0)])
    let nodeB = try ClusterNode(self, urls: [nats.url(1)])
    let publisher = try nodeA.client()
    for name in ["shelf.1", "shelf.2", "shelf.3"] {
      let reply = try publisher.request(
        #"{"op":"publish","stream":"\#(name)","value":"book","retain":true}"#,
        timeout: .seconds(15))
      XCTAssertEqual(reply["ok"] as? Bool, true, "\(reply)")
    }
    // A subscriber that came and went leaves nothing on node A but the retained value.
    let visitor = try nodeA.client()
    XCTAssertEqual(
      try visitor.request(#"{"op":"subscribe","stream":"shelf.1"}"#)["ok"] as? Bool, true)
    visitor.close()

    for node in [nodeA, nodeB] {
      let client = try node.client()
      var names: [String] = []
      XCTAssertTrue(
        try eventually(timeout: .seconds(10)) {
          names = topicNames(try client.request(#"{"op":"list"}"#))
          return names.contains("shelf.3")
        }, "\(names)")
      XCTAssertTrue(["shelf.1", "shelf.2", "shelf.3"].allSatisfy(names.contains), "\(names)")

      let filtered = try client.request(#"{"op":"list","stream":"shelf.*"}"#)
      XCTAssertEqual(topicNames(filtered), ["shelf.1", "shelf.2", "shelf.3"], "\(filtered)")
      let entry = (filtered["streams"] as? [[String: Any]])?.first
      XCTAssertEqual(entry?["local_only"] as? Bool, false, "\(filtered)")
      let one = try client.request(#"{"op":"list","stream":"shelf.2"}"#)
      XCTAssertEqual(topicNames(one), ["shelf.2"], "\(one)")
      let page = try client.request(#"{"op":"list","stream":"shelf.*","after":"shelf.1"}"#)
      XCTAssertEqual(topicNames(page), ["shelf.2", "shelf.3"], "\(page)")
      XCTAssertNil(page["next"], "\(page)")
    }

    // Cleared, it is gone from the list again.
    let cleared = try publisher.request(#"{"op":"clear","stream":"shelf.2"}"#)
    XCTAssertEqual(cleared["cleared"] as? Bool, true, "\(cleared)")
    let after = try nodeB.client().request(#"{"op":"list","stream":"shelf.*"}"#)
    XCTAssertEqual(topicNames(after), ["shelf.1", "shelf.3"], "\(after)")
  }

  /// The names of the topics of a `list` reply, in its order.
  private func topicNames(_ reply: [String: Any]) -> [String] {
    (reply["streams"] as? [[String: Any]] ?? []).filter { $0["kind"] as? String == "topic" }
      .compactMap { $0["name"] as? String }
  }
}
