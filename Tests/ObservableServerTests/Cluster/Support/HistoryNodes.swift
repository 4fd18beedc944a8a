import Foundation
import TestSupport
import XCTest

/// Two nodes with `--history`, on different NATS servers of a three-server JetStream
/// cluster, each ready once it can give positions (its history stream made and its epoch
/// read: before that a subscribe with positions is answered `unavailable`).
struct HistoryNodes {
  let nats: NATSClusterFixture
  let nodes: [ClusterNode]
  /// The nodes' HTTP ports (WebSocket at `/ws`), when they were started with HTTP.
  let httpPorts: [UInt16]
  /// The first node's Unix socket, when the nodes are on a link: a client in the link's
  /// namespace reaches it (a path is in no network namespace), and no cut of the link does.
  let socketPath: String?

  /// Starts the cluster and two nodes keeping `history` values per topic, each with an HTTP
  /// port when `http`, and `extra` arguments. With a `link`, the nodes listen on its server
  /// address too, on the same ports as on loopback (free there: a wildcard listener would
  /// have taken them on loopback as well), while NATS stays on loopback.
  init(
    _ test: XCTestCase, history: Int, http: Bool = false, link: TestNetwork? = nil,
    extra: [String] = []
  ) throws {
    let nats = try NATSClusterFixture(test)
    self.nats = nats
    let httpPorts = http ? try (0..<2).map { _ in try freeLoopbackPort() } : []
    self.httpPorts = httpPorts
    let addresses = ["127.0.0.1"] + (link.map { [$0.serverAddress] } ?? [])
    let socketPath = link.map { _ in temporarySocketPath("history-nodes") }
    self.socketPath = socketPath
    if let socketPath { test.addTeardownBlock { unlink(socketPath) } }
    nodes = try (0..<2).map { index in
      let httpArguments = http ? addresses.flatMap { ["--http", "\($0):\(httpPorts[index])"] } : []
      let socketArguments = index == 0 ? socketPath.map { ["--listen", "unix:\($0)"] } ?? [] : []
      let node = try ClusterNode(
        test, urls: [nats.url(index)], alsoOn: Array(addresses.dropFirst()),
        extra: ["--history", "\(history)"] + httpArguments + socketArguments + extra)
      guard
        eventually(
          timeout: .seconds(15),
          { node.process.output.contains("cluster history positions ready") })
      else { throw ClusterTestFailure("no history positions:\n\(node.process.output)") }
      return node
    }
  }
}

extension HistoryNodes {
  /// Publishes the values 0 to `count - 1` to `topic` on the first node, and returns the
  /// position a subscriber with positions there got for each, by value.
  ///
  /// Each value is published once the one before it reached the subscriber: a subscriber
  /// whose consumer lags more than `--history` values of the topic behind is told of a gap
  /// instead of getting them (a loaded machine made that happen to a burst of 20 at 5).
  func publish(_ count: Int, to topic: String) throws -> [Int: String] {
    let subscriber = try nodes[0].client()
    defer { subscriber.close() }
    try subscriber.request(#"{"op":"subscribe","stream":"\#(topic)","pos":true}"#)
    let publisher = try nodes[0].client()
    defer { publisher.close() }
    var positions: [Int: String] = [:]
    for value in 0..<count {
      try publisher.request(#"{"op":"publish","stream":"\#(topic)","value":\#(value)}"#)
      while positions[value] == nil {
        if let delivery = PositionedValue(try subscriber.readJSON(timeout: .seconds(10))) {
          positions[delivery.value] = delivery.position
        }
      }
    }
    return positions
  }
}

/// One delivery with a position, as a test checks it.
struct PositionedValue {
  let topic: String
  let value: Int
  let position: String

  /// The delivery `line` carries, or `nil` for a reply or a line without a position.
  init?(_ line: [String: Any]) {
    guard line["ok"] == nil, let topic = line["stream"] as? String,
      let value = line["value"] as? Int, let position = line["pos"] as? String
    else { return nil }
    self.topic = topic
    self.value = value
    self.position = position
  }
}
