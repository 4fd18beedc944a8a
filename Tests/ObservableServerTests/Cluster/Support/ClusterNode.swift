import Foundation
import TestSupport
import XCTest

@testable import ObservableServer

/// One `observable-server` process joined to a NATS cluster, ready once its retained stream is.
final class ClusterNode {
  /// The process, killed when the test ends.
  let process: ServerProcess
  /// Its client port.
  let port: UInt16

  /// Starts a node with `--cluster` for each of `urls`, plus `extra` arguments, listening on
  /// its port on loopback and on each of `addresses` (a ``TestNetwork``'s server address).
  init(_ test: XCTestCase, urls: [String], alsoOn addresses: [String] = [], extra: [String] = [])
    throws
  {
    let port = try freeLoopbackPort()
    self.port = port
    process = try ServerProcess(
      arguments: (["127.0.0.1"] + addresses).flatMap { ["--listen", "\($0):\(port)"] }
        + urls.flatMap { ["--cluster", $0] } + extra)
    let process = process
    test.addTeardownBlock {
      process.signal(SIGKILL)
      _ = process.waitForExit(timeout: .seconds(5))
    }
    // Ready either way: nodes started together race to make the stream, and the loser's update
    // can time out while the JetStream leader settles, which keeps the winner's stream.
    guard process.listeningPort() != nil,
      eventually(
        timeout: .seconds(15),
        {
          process.output.contains("cluster retained stream ready")
            || process.output.contains("cluster retained stream kept as it was")
        })
    else { throw ClusterTestFailure("node did not join the cluster:\n\(process.output)") }
  }

  /// A new client of this node.
  func client() throws -> LineClient { try LineClient(port: port) }
}

extension LineClient {
  /// The value of the next delivery of `stream` (through `sub` when given), skipping
  /// deliveries whose value `skip` accepts; fails after `timeout`.
  func nextValue(
    _ stream: String, sub: String? = nil, skipping skip: (Any) -> Bool = { _ in false },
    timeout: Duration = .seconds(5)
  ) throws -> Any? {
    let deadline = ContinuousClock.now + timeout
    while true {
      let line = try readJSON(timeout: deadline - .now)
      guard line["ok"] == nil, line["stream"] as? String == stream,
        line["sub"] as? String == sub, let value = line["value"]
      else { continue }
      if !skip(value) { return value }
    }
  }

  /// Publishes warm-up values on `client` until this client receives one, so that the NATS
  /// subscriptions of both nodes are in place; returns the first value received.
  @discardableResult
  func waitForFlow(
    from publisher: LineClient, stream: String, sub: String? = nil,
    timeout: Duration = .seconds(10)
  ) throws -> Any {
    let deadline = ContinuousClock.now + timeout
    var sent = 0
    while ContinuousClock.now < deadline {
      sent += 1
      try publisher.request(#"{"op":"publish","stream":"\#(stream)","value":"warm-up"}"#)
      if let value = try? nextValue(stream, sub: sub, timeout: .milliseconds(200)) {
        return value as Any
      }
    }
    throw ClusterTestFailure("no value crossed the cluster in \(timeout) after \(sent) tries")
  }
}

/// Whether a value is a warm-up value of ``LineClient/waitForFlow(from:stream:sub:timeout:)``.
func isWarmUp(_ value: Any) -> Bool { value as? String == "warm-up" }
