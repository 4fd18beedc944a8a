import Foundation
import TestSupport
import XCTest

@testable import ObservableServer

/// A will goes through the clustered publish path: it reaches subscribers on other nodes, and a
/// retained will is kept in JetStream for later subscribers anywhere.
final class ClusterWillTests: XCTestCase {
  func testAWillReachesAnotherNodeAndARetainedOneIsKeptInJetStream() throws {
    let flow = try FeedAcrossNodes(self)
    let device = try flow.nodeA.client()
    try device.request("will feed gone")
    device.reset()
    XCTAssertEqual(
      try flow.subscriber.nextValue("feed", skipping: isWarmUp, timeout: .seconds(10)) as? String,
      "gone")

    let door = try flow.nodeA.client()
    let reply = try door.request(
      #"{"op":"will","stream":"door.x","value":"open","retain":true}"#)
    XCTAssertEqual(reply["ok"] as? Bool, true, "\(reply)")
    door.close()
    // JetStream stores it after the close; a later subscriber on the other node then gets it.
    var retained: Any?
    let deadline = ContinuousClock.now + .seconds(15)
    while retained == nil, ContinuousClock.now < deadline {
      let later = try flow.nodeB.client()
      try later.request(#"{"op":"subscribe","stream":"door.x"}"#)
      retained = try? later.nextValue("door.x", timeout: .milliseconds(500))
    }
    XCTAssertEqual(retained as? String, "open")
  }
}
