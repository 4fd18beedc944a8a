import Foundation
import TestSupport
import XCTest

@testable import ObservableServer

/// What a clustered server refuses, and what an unclustered one does not show.
final class ClusterLimitsTests: XCTestCase {
  func testValueOverNATSMaxPayloadIsRefusedWithAClearError() throws {
    let nats = try NATSClusterFixture(self, extraConfiguration: "max_payload: 4096")
    let node = try ClusterNode(self, urls: [nats.url(0)])
    let client = try node.client()
    let big = String(repeating: "x", count: 5000)
    for retain in [false, true] {
      let reply = try client.request(
        #"{"op":"publish","stream":"big","value":"\#(big)","retain":\#(retain)}"#)
      let error = reply["error"] as? [String: Any]
      XCTAssertEqual(error?["code"] as? String, "limit_exceeded", "retain \(retain)")
      XCTAssertTrue((error?["message"] as? String ?? "").contains("max_payload"))
    }
    // Also when it follows a publish to the same topic in one read, which is batched.
    try client.send(
      #"{"op":"publish","stream":"big","value":"ok"}"# + "\n"
        + #"{"op":"publish","stream":"big","value":"\#(big)"}"#)
    XCTAssertEqual(try client.readReply()["ok"] as? Bool, true)
    let batched = try client.readReply()
    XCTAssertEqual((batched["error"] as? [String: Any])?["code"] as? String, "limit_exceeded")
    // Replies keep the order of requests, though JetStream answers the first one later.
    try client.send(
      #"{"op":"publish","stream":"kept","value":1,"retain":true,"id":"r"}"# + "\n"
        + #"{"op":"ping","id":"p"}"#)
    let first = try client.readReply(timeout: .seconds(15))
    let second = try client.readReply()
    XCTAssertEqual(first["id"] as? String, "r", "\(first)")
    XCTAssertEqual(first["ok"] as? Bool, true, "\(first)")
    XCTAssertEqual(second["id"] as? String, "p")
    let small = try client.request(#"{"op":"publish","stream":"big","value":"ok"}"#)
    XCTAssertEqual(small["ok"] as? Bool, true, "the NATS connection survived: \(small)")
    let line = try client.request(#"{"op":"list"}"#)
    let streams = line["streams"] as? [[String: Any]] ?? []
    XCTAssertEqual(streams.first { $0["name"] as? String == "clock" }?["local_only"] as? Bool, true)
  }

  func testWithoutClusterNothingAboutClusteringShows() throws {
    let port = try freeLoopbackPort()
    let server = try ServerProcess(arguments: ["--listen", "127.0.0.1:\(port)"])
    XCTAssertNotNil(server.listeningPort())
    let client = try LineClient(port: port)
    let list = try client.request(#"{"op":"list"}"#)
    let streams = list["streams"] as? [[String: Any]] ?? []
    XCTAssertFalse(streams.isEmpty)
    XCTAssertTrue(streams.allSatisfy { $0["local_only"] == nil })
    try client.request(#"{"op":"subscribe","stream":"stats"}"#)
    let stats = try client.read(until: { $0["stream"] as? String == "stats" })
    XCTAssertNil((stats["value"] as? [String: Any])?["cluster"])
    XCTAssertFalse(server.output.contains("cluster"))
    let retained = try client.request(#"{"op":"publish","stream":"a","value":1,"retain":true}"#)
    XCTAssertEqual(retained["ok"] as? Bool, true)
  }
}
