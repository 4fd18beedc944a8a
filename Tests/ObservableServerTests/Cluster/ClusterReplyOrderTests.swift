import Foundation
import TestSupport
import XCTest

@testable import ObservableServer

/// A subscribe's reply comes before the subscription's values in cluster mode too, even when
/// it waits behind a reply the cluster owes.
final class ClusterReplyOrderTests: XCTestCase {
  func testSubscribeReplyComesBeforeRetainedAndLiveValues() throws {
    let nats = try NATSClusterFixture(self)
    let node = try ClusterNode(self, urls: [nats.url(0)])
    let setup = try node.client()
    let stored = try setup.request(
      #"{"op":"publish","stream":"door","value":"stored","retain":true,"id":1}"#,
      timeout: .seconds(15))
    XCTAssertEqual(stored["ok"] as? Bool, true, "\(stored)")
    let live = LivePublisher(port: node.port, stream: "door")
    defer { live.stop() }

    for round in 0..<30 {
      let client = try node.client()
      defer { client.close() }
      // The retained publish's reply is owed by JetStream; the subscribe's waits behind it.
      try client.send(
        #"{"op":"publish","stream":"knob","value":\#(round),"retain":true,"id":"p"}"# + "\n"
          + #"{"op":"subscribe","stream":"door","id":"s"}"#)
      var lines: [[String: Any]] = []
      while !lines.contains(where: { $0["id"] as? String == "s" }) {
        lines.append(try client.readJSON(timeout: .seconds(15)))
      }
      let reply = lines.firstIndex { $0["id"] as? String == "s" } ?? 0
      let early = lines[..<reply].filter { $0["stream"] as? String == "door" && $0["ok"] == nil }
      XCTAssertEqual(early.count, 0, "round \(round): values before the subscribe reply: \(lines)")
      XCTAssertEqual(lines[reply]["ok"] as? Bool, true, "\(lines[reply])")
      // The retained value (or a newer live one) still comes, after the reply.
      XCTAssertNotNil(try client.nextValue("door"))
      if !early.isEmpty { break }
    }
    XCTAssertGreaterThan(live.sent, 0)
  }
}

/// A client that publishes to a stream on its own thread, as fast as replies come back,
/// until stopped; ``stop()`` waits for the thread to end.
final class LivePublisher: @unchecked Sendable {
  // Unchecked: `stopped` and `count` are behind `lock`.
  private let lock = NSLock()
  private var stopped = false
  private var count = 0
  private let done = DispatchSemaphore(value: 0)

  /// Starts publishing to `stream` on the node at `port`.
  init(port: UInt16, stream: String) {
    let thread = Thread { [self] in
      defer { done.signal() }
      guard let client = try? LineClient(port: port) else { return }
      defer { client.close() }
      var value = 0
      while !isStopped {
        value += 1
        let line = #"{"op":"publish","stream":"\#(stream)","value":\#(value)}"#
        guard (try? client.request(line)) != nil else { return }
        lock.withLock { count += 1 }
      }
    }
    thread.start()
  }

  private var isStopped: Bool { lock.withLock { stopped } }

  /// How many values it published.
  var sent: Int { lock.withLock { count } }

  /// Stops publishing and waits for the thread to end.
  func stop() {
    lock.withLock { stopped = true }
    done.wait()
  }
}
