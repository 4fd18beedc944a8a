import Foundation
import Locking
import TestSupport
import XCTest

/// Topic history through JetStream (`--cluster` with `--history`): positions any node wrote
/// resume on any other, with every value once and in order, a gap reported when the history
/// no longer reaches back, and the `history` op answered on another node. Real `nats-server
/// -js` processes and nodes, killed when the test ends.
final class ClusterHistoryTests: XCTestCase {
  /// A publisher writes to several topics on node A while a pattern subscriber is reset at
  /// random moments and resumes each time on the other node: it sees every value of every
  /// topic once, in order, and every resume says `recovered:true`.
  func testASubscriberMovingBetweenNodesSeesEveryValueOnceInOrder() throws {
    let cluster = try HistoryNodes(self, history: 10_000)
    let topics = (0..<4).map { "move.t\($0)" }
    let perTopic = 300
    var client = try cluster.nodes[1].client()
    let first = try client.request(#"{"op":"subscribe","stream":"move.*","pos":true}"#)
    XCTAssertEqual(first["ok"] as? Bool, true, "\(first)")

    let publisher = try cluster.nodes[0].client()
    let published = DispatchSemaphore(value: 0)
    let failure = Locked<String?>(nil)
    Thread.detachNewThread {
      defer { published.signal() }
      do {
        for value in 0..<perTopic {
          for topic in topics {
            try publisher.request(#"{"op":"publish","stream":"\#(topic)","value":\#(value)}"#)
          }
        }
      } catch {
        failure.withLock { $0 = "publisher: \(error)" }
      }
    }

    var seen: [String: [Int]] = [:]
    // Cut before any value, the subscriber resumes from where the reply said it starts.
    var last = first["pos"] as? String
    XCTAssertNotNil(last, "\(first)")
    var resumes = 0
    var generator = SystemRandomNumberGenerator()
    let deadline = ContinuousClock.now + .seconds(90)
    while seen.values.reduce(0, { $0 + $1.count }) < topics.count * perTopic,
      ContinuousClock.now < deadline
    {
      // Reads a random number of deliveries, then drops the connection with a reset.
      let toRead = Int.random(in: 1...150, using: &generator)
      var read = 0
      while read < toRead, let line = try? client.readJSON(timeout: .seconds(5)) {
        guard let delivery = PositionedValue(line) else { continue }
        XCTAssertEqual(line["sub"] as? String, "move.*")
        seen[delivery.topic, default: []].append(delivery.value)
        last = delivery.position
        read += 1
      }
      client.reset()
      resumes += 1
      client = try cluster.nodes[resumes % 2].client()
      guard let resumeFrom = last else { continue }
      let reply = try client.request(
        #"{"op":"subscribe","stream":"move.*","since":"\#(resumeFrom)"}"#, timeout: .seconds(10))
      XCTAssertEqual(reply["recovered"] as? Bool, true, "resume \(resumes): \(reply)")
      for line in client.takeDeliveries() {
        guard let delivery = PositionedValue(line) else { continue }
        seen[delivery.topic, default: []].append(delivery.value)
        last = delivery.position
      }
    }
    client.close()
    XCTAssertEqual(published.wait(timeout: .now() + 60), .success)
    XCTAssertNil(failure.withLock { $0 })
    XCTAssertGreaterThan(resumes, 3)
    for topic in topics {
      XCTAssertEqual(seen[topic] ?? [], Array(0..<perTopic), "\(topic) after \(resumes) resumes")
    }
  }

  /// A subscriber cut off before any value arrived resumes on the other node from the
  /// reply's `pos`: it gets exactly what was stored while it was away, nothing from before.
  func testASubscriberCutBeforeAnyValueResumesFromTheRepliesPosition() throws {
    let cluster = try HistoryNodes(self, history: 100)
    _ = try cluster.publish(2, to: "start.x")
    let first = try cluster.nodes[1].client()
    let reply = try first.request(
      #"{"op":"subscribe","stream":"start.*","pos":true}"#, timeout: .seconds(10))
    let start = try XCTUnwrap(reply["pos"] as? String, "\(reply)")
    first.reset()
    let positions = try cluster.publish(3, to: "start.y")

    let resumed = try cluster.nodes[0].client()
    let again = try resumed.request(
      #"{"op":"subscribe","stream":"start.*","since":"\#(start)"}"#, timeout: .seconds(10))
    XCTAssertEqual(again["recovered"] as? Bool, true, "\(again)")
    XCTAssertNil(again["pos"])
    var values = resumed.takeDeliveries().compactMap(PositionedValue.init)
    while values.count < 3 {
      if let delivery = PositionedValue(try resumed.readJSON(timeout: .seconds(10))) {
        values.append(delivery)
      }
    }
    XCTAssertEqual(values.map(\.topic), ["start.y", "start.y", "start.y"])
    XCTAssertEqual(values.map(\.value), [0, 1, 2])
    XCTAssertEqual(values.map(\.position), [positions[0], positions[1], positions[2]])
  }

  /// A resume from a position the history of a topic no longer reaches says
  /// `recovered:false`, on the other node, and delivers what the history still holds; one
  /// from a recent position says `recovered:true` and delivers exactly what came after it.
  func testAResumeBeyondTheHistoryOfATopicSaysRecoveredFalse() throws {
    let cluster = try HistoryNodes(self, history: 5)
    let positions = try cluster.publish(20, to: "gap.x")

    let late = try cluster.nodes[1].client()
    let stale = try late.request(
      #"{"op":"subscribe","stream":"gap.x","since":"\#(positions[2]!)"}"#, timeout: .seconds(10))
    XCTAssertEqual(stale["recovered"] as? Bool, false, "\(stale)")
    var values: [Int] = late.takeDeliveries().compactMap { PositionedValue($0)?.value }
    while values.count < 5 {
      if let delivery = PositionedValue(try late.readJSON(timeout: .seconds(10))) {
        values.append(delivery.value)
      }
    }
    XCTAssertEqual(values, [15, 16, 17, 18, 19])

    let recent = try cluster.nodes[1].client()
    let fresh = try recent.request(
      #"{"op":"subscribe","stream":"gap.x","since":"\#(positions[16]!)"}"#,
      timeout: .seconds(10))
    XCTAssertEqual(fresh["recovered"] as? Bool, true, "\(fresh)")
    var after: [Int] = recent.takeDeliveries().compactMap { PositionedValue($0)?.value }
    while after.count < 3 {
      if let delivery = PositionedValue(try recent.readJSON(timeout: .seconds(10))) {
        after.append(delivery.value)
      }
    }
    XCTAssertEqual(after, [17, 18, 19])
    XCTAssertThrowsError(try recent.readJSON(timeout: .milliseconds(300)))
  }

  /// The `history` op on the other node answers the last values JetStream holds, oldest
  /// first, each with the position a subscriber got for it.
  func testTheHistoryOpAnswersOnAnotherNode() throws {
    let cluster = try HistoryNodes(self, history: 100)
    let positions = try cluster.publish(3, to: "read.x")
    let reader = try cluster.nodes[1].client()
    let reply = try reader.request(
      #"{"op":"history","stream":"read.x","limit":2}"#, timeout: .seconds(10))
    XCTAssertEqual(reply["count"] as? Int, 2, "\(reply)")
    let lines = reader.takeDeliveries().compactMap(PositionedValue.init)
    XCTAssertEqual(lines.map(\.value), [1, 2])
    XCTAssertEqual(lines.map(\.position), [positions[1], positions[2]])
  }

  /// A value stored is in the `history` read on the other node at once, though that node's
  /// NATS server may hold a replica of the stream that lags: the read waits for what the
  /// stream's leader said it holds. Each round publishes on node A, waits until a subscriber
  /// with positions there has the value (JetStream stored it), then reads on node B.
  func testTheHistoryOpOnAnotherNodeHasEveryValueStored() throws {
    let cluster = try HistoryNodes(self, history: 1000)
    var stale: [String] = []
    let reader = try cluster.nodes[1].client()
    for round in 0..<60 {
      let positions = try cluster.publish(1, to: "fresh.\(round)")
      let read = try reader.request(
        #"{"op":"history","stream":"fresh.\#(round)"}"#, timeout: .seconds(10))
      let got = reader.takeDeliveries().compactMap(PositionedValue.init).map(\.position)
      if got != [positions[0]] { stale.append("round \(round) read \(got): \(read)") }
    }
    XCTAssertEqual(stale, [])
  }
}

/// A subscription with positions outlives the NATS server under its node.
final class ClusterHistoryFailoverTests: XCTestCase {
  /// The NATS server of the subscriber's node is killed: the node moves to another, its
  /// consumer is made again after the last sequence delivered, and the subscriber gets every
  /// value stored afterwards once, in order, with no reconnect of its own.
  func testASubscriptionWithPositionsGoesOnWhenItsNATSServerDies() throws {
    let cluster = try HistoryNodes(self, history: 1000)
    let subscriber = try cluster.nodes[1].client()
    try subscriber.request(#"{"op":"subscribe","stream":"fail.x","pos":true}"#)
    let publisher = try cluster.nodes[0].client()
    var values: [Int] = []
    func publish(_ range: Range<Int>) throws {
      for value in range {
        try publisher.request(#"{"op":"publish","stream":"fail.x","value":\#(value)}"#)
      }
      while values.count < range.upperBound {
        if let delivery = PositionedValue(try subscriber.readJSON(timeout: .seconds(20))) {
          values.append(delivery.value)
        }
      }
    }
    try publish(0..<50)
    cluster.nats.kill(1)
    // Values are published again once JetStream stores them (a new stream leader, if it was
    // on the killed server): a probe on another topic must come back from the history.
    let probe = try cluster.nodes[0].client()
    let stored = eventually(timeout: .seconds(30)) {
      _ = try? probe.request(#"{"op":"publish","stream":"probe.x","value":1}"#)
      let reply = try? probe.request(
        #"{"op":"history","stream":"probe.x","limit":1}"#, timeout: .seconds(3))
      return (reply?["count"] as? Int ?? 0) > 0
    }
    XCTAssertTrue(stored, "JetStream stored nothing after the kill")
    try publish(50..<100)
    XCTAssertEqual(values, Array(0..<100))
    XCTAssertThrowsError(try subscriber.readJSON(timeout: .milliseconds(500)))
  }
}
