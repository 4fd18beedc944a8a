import Foundation
import TestSupport
import XCTest

/// A retained value JetStream acknowledged is the one a new subscriber on any node gets, and
/// the one a pattern's subscriber gets, whichever NATS server's replica of the stream is
/// behind. Real `nats-server -js` processes and nodes, killed when the test ends.
final class ClusterRetainedReadTests: XCTestCase {
  /// Each round stores a new retained value through node A, then subscribes on node B or C,
  /// by name and by pattern: both must start with that value, not the one before.
  func testANewSubscriberOnAnotherNodeGetsTheLatestRetainedValue() throws {
    let nats = try NATSClusterFixture(self)
    let nodes = try (0..<3).map { try ClusterNode(self, urls: [nats.url($0)]) }
    let publisher = try nodes[0].client()
    var stale: [String] = []
    for round in 0..<60 {
      let reply = try publisher.request(
        #"{"op":"publish","stream":"fresh.r","value":\#(round),"retain":true}"#,
        timeout: .seconds(10))
      XCTAssertEqual(reply["ok"] as? Bool, true, "\(reply)")
      for name in ["fresh.r", "fresh.*"] {
        let subscriber = try nodes[1 + round % 2].client()
        defer { subscriber.close() }
        try subscriber.request(#"{"op":"subscribe","stream":"\#(name)"}"#, timeout: .seconds(10))
        let value = try subscriber.readJSON(timeout: .seconds(10))["value"] as? Int
        if value != round { stale.append("round \(round), \(name): \(String(describing: value))") }
      }
    }
    XCTAssertEqual(stale, [])
  }
}
