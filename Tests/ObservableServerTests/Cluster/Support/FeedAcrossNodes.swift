import TestSupport
import XCTest

/// Two nodes joined to different servers of a NATS cluster, with values of `feed` published on
/// the first already arriving at a subscriber of the second: where the tests of a NATS server
/// failing under a node begin.
struct FeedAcrossNodes {
  let nats: NATSClusterFixture
  /// The node on NATS server 0, the one the tests make fail, and its publisher.
  let nodeA: ClusterNode
  let publisher: LineClient
  /// The node on NATS server 1, and its subscriber to `feed`.
  let nodeB: ClusterNode
  let subscriber: LineClient

  /// Starts the cluster and both nodes (node A with `extraForNodeA` arguments besides), and
  /// waits until values flow.
  init(_ test: XCTestCase, extraForNodeA: [String] = []) throws {
    nats = try NATSClusterFixture(test)
    nodeA = try ClusterNode(test, urls: [nats.url(0)], extra: extraForNodeA)
    nodeB = try ClusterNode(test, urls: [nats.url(1)])
    publisher = try nodeA.client()
    subscriber = try nodeB.client()
    try subscriber.request(#"{"op":"subscribe","stream":"feed"}"#)
    try subscriber.waitForFlow(from: publisher, stream: "feed")
  }
}
