import Foundation
import TestSupport
import XCTest

@testable import ObservableServer

/// What a node counts of the messages NATS brings it.
final class ClusterCountingTests: XCTestCase {
  func testRejectedMessageCountsOnceWhateverSubscriptionsItReaches() throws {
    let nats = try NATSClusterFixture(self)
    let node = try ClusterNode(self, urls: [nats.url(0)])
    let subscriber = try node.client()
    let other = try node.client()
    // One NATS subscription per name: `t.x` (shared by both clients), `t.*` and `t.>`.
    for name in ["t.x", "t.*", "t.>"] {
      XCTAssertEqual(
        try subscriber.request(#"{"op":"subscribe","stream":"\#(name)"}"#)["ok"] as? Bool, true)
    }
    XCTAssertEqual(try other.request(#"{"op":"subscribe","stream":"t.x"}"#)["ok"] as? Bool, true)

    let raw = try RawNATSPublisher(port: nats.clientPorts[0])
    // Until a value through `t.>`, the last subscription made, arrives, NATS may not have them.
    let deadline = ContinuousClock.now + .seconds(10)
    var flowing = false
    while !flowing, ContinuousClock.now < deadline {
      try raw.publish("obs.t.x", #"{"stream":"t.x","value":"warm-up"}"# + "\n")
      flowing = (try? subscriber.nextValue("t.x", sub: "t.>", timeout: .milliseconds(300))) != nil
    }
    XCTAssertTrue(flowing, "no value came through NATS")

    try raw.publish("obs.t.x", "not a delivery line\n")
    try raw.publish("obs.t.x", #"{"stream":"t.y","value":1}"# + "\n")
    // NATS delivers in order: once the last value is here, every copy of the two before it is.
    try raw.publish("obs.t.x", #"{"stream":"t.x","value":"last"}"# + "\n")
    XCTAssertEqual(
      try other.nextValue("t.x", skipping: isWarmUp, timeout: .seconds(5)) as? String, "last")
    XCTAssertEqual(
      try subscriber.nextValue("t.x", sub: "t.>", skipping: isWarmUp) as? String, "last")

    let cluster = try subscriber.clusterStats()
    XCTAssertEqual(cluster["values_rejected"] as? Int, 2, "\(cluster)")
  }
}

/// A bare NATS client that publishes, for messages no node would send.
final class RawNATSPublisher {
  private let client: LineClient

  /// Connects to the NATS server on `port` and completes the handshake.
  init(port: UInt16) throws {
    client = try LineClient(port: port, readGreeting: false)
    _ = try client.readLine()
    try client.sendRaw(Array("CONNECT {\"verbose\":false}\r\nPING\r\n".utf8))
    try waitForPong()
  }

  /// Publishes `payload` to `subject` and waits until the server has it.
  func publish(_ subject: String, _ payload: String) throws {
    try client.sendRaw(Array("PUB \(subject) \(payload.utf8.count)\r\n\(payload)\r\nPING\r\n".utf8))
    try waitForPong()
  }

  private func waitForPong() throws {
    let deadline = ContinuousClock.now + .seconds(5)
    while ContinuousClock.now < deadline {
      if try client.readLine(timeout: deadline - .now).hasPrefix("PONG") { return }
    }
    throw ClusterTestFailure("NATS sent no PONG")
  }
}

extension LineClient {
  /// The `cluster` object of one `stats` value.
  func clusterStats() throws -> [String: Any] {
    XCTAssertEqual(try request(#"{"op":"subscribe","stream":"stats"}"#)["ok"] as? Bool, true)
    let line = try read(until: { $0["stream"] as? String == "stats" })
    try request(#"{"op":"unsubscribe","stream":"stats"}"#)
    return ((line["value"] as? [String: Any])?["cluster"] as? [String: Any]) ?? [:]
  }
}
