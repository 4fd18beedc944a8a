import Foundation
import Glibc
import XCTest

@testable import NATS

/// The client in a three-node NATS cluster: servers learnt from `connect_urls`, and a
/// reconnection to another node when its server is killed.
final class NATSClusterTests: XCTestCase {
  private func url(_ node: NATSServerProcess) -> NATSServerURL {
    NATSServerURL(host: "127.0.0.1", port: node.port)
  }

  func testLearnsTheClusterAndReconnectsToAnotherNodeAfterSIGKILL() throws {
    let cluster = try NATSClusterProcesses(self)
    let (n1, n2, n3) = (cluster.nodes[0], cluster.nodes[1], cluster.nodes[2])
    // Configured with n1 only: the others must come from INFO's connect_urls.
    let subscriber = try NATSTestConnection(servers: [url(n1)], name: "subscriber")
    try subscriber.run(until: { $0.session.servers.servers.count == 3 }, timeout: .seconds(10))
    XCTAssertEqual(
      Set(subscriber.session.servers.servers.map(\.port)), Set([n1.port, n2.port, n3.port]))
    let sid = try subscriber.subscribe("cluster.>")
    let publisher = try NATSTestConnection(servers: [url(n3)], name: "publisher")

    // Routes carry interest asynchronously: publish until the first value arrives.
    try publishUntilReceived(publisher, subscriber, sid: sid, value: "before")

    n1.stop(signal: SIGKILL)
    let killed = ContinuousClock.now
    try subscriber.run(until: { $0.session.state == .connected && $0.connections.count == 2 })
    let reconnection = ContinuousClock.now - killed
    XCTAssertNotEqual(subscriber.connections.last?.port, n1.port)
    XCTAssertLessThan(reconnection, .seconds(3), "reconnected in \(reconnection)")
    try publishUntilReceived(publisher, subscriber, sid: sid, value: "after")
  }

  func testSilentServerIsFoundDeadByPingsAndLeft() throws {
    let cluster = try NATSClusterProcesses(self)
    let (n1, n2) = (cluster.nodes[0], cluster.nodes[1])
    let client = try NATSTestConnection(
      servers: [url(n1), url(n2)], name: "client", pingInterval: .milliseconds(200))
    let sid = try client.subscribe("silent.>")
    // A stopped process keeps its sockets open: only the missing PONGs show it is gone.
    n1.signal(SIGSTOP)
    let stopped = ContinuousClock.now
    try client.run(until: { $0.session.state == .connected && $0.connections.count == 2 })
    let detection = ContinuousClock.now - stopped
    XCTAssertTrue(client.events.contains(.dead(.pingTimeout)))
    XCTAssertEqual(client.connections.last?.port, n2.port)
    // Two unanswered PINGs 200 ms apart, then the third interval declares it dead.
    XCTAssertGreaterThanOrEqual(detection, .milliseconds(400))
    XCTAssertLessThan(detection, .seconds(2), "detected in \(detection)")
    let publisher = try NATSTestConnection(servers: [url(cluster.nodes[2])], name: "publisher")
    try publishUntilReceived(publisher, client, sid: sid, value: "resumed", subject: "silent.x")
  }

  func testReplicatedStreamStoresAndAnyNodeReadsIt() throws {
    let cluster = try NATSClusterProcesses(self)
    let writer = try NATSTestConnection(servers: [url(cluster.nodes[0])], name: "writer")
    let reader = try NATSTestConnection(servers: [url(cluster.nodes[2])], name: "reader")
    let config = JetStreamStreamConfig(name: "OBS", subjects: ["obs-retained.>"], replicas: 3)
    // JetStream elects its meta leader after the cluster forms; until then calls fail.
    let created = try retrying(timeout: .seconds(20)) {
      try JetStreamAPI.decodeStreamInfo(writer.call(JetStreamAPI.createStream(config)))
    }
    XCTAssertEqual(created.replicas, 3)
    let ack = try retrying(timeout: .seconds(20)) {
      try JetStreamAPI.decodePublishAck(writer.request("obs-retained.x", payload: Array("v".utf8)))
    }
    // Any replica answers a direct get, and one that has not applied the write yet answers
    // 404: ask until one has it.
    let stored = try retrying(timeout: .seconds(10)) {
      let stored = try JetStreamAPI.decodeDirectGet(
        reader.call(JetStreamAPI.directGetLast(stream: "OBS", subject: "obs-retained.x")))
      guard let stored, stored.sequence >= ack.sequence else {
        throw JetStreamError.unexpectedStatus(503, "a replica behind")
      }
      return stored
    }
    XCTAssertEqual(stored.sequence, ack.sequence)
    XCTAssertEqual(Array(stored.payload), Array("v".utf8))
  }

  func testStoresAfterTheStreamLeaderDiesFailTemporarilyThenSucceed() throws {
    let cluster = try NATSClusterProcesses(self)
    let setup = try NATSTestConnection(servers: [url(cluster.nodes[0])], name: "setup")
    let config = JetStreamStreamConfig(name: "OBS", subjects: ["obs-retained.>"], replicas: 3)
    _ = try retrying(timeout: .seconds(20)) {
      try JetStreamAPI.decodeStreamInfo(setup.call(JetStreamAPI.createStream(config)))
    }
    let status = try retrying(timeout: .seconds(20)) {
      let status = try JetStreamAPI.decodeStreamStatus(
        setup.call(JetStreamAPI.streamInfo(name: "OBS")))
      guard status.leader != nil else {
        throw JetStreamError.unexpectedStatus(503, "no leader yet")
      }
      return status
    }
    XCTAssertEqual(status.config.replicas, 3)
    let leaderIndex = try XCTUnwrap(["n1", "n2", "n3"].firstIndex(of: status.leader ?? ""))
    let survivor = cluster.nodes[(leaderIndex + 1) % 3]
    let client = try NATSTestConnection(servers: [url(survivor)], name: "client")
    _ = try retrying(timeout: .seconds(10)) {
      try JetStreamAPI.decodePublishAck(client.request("obs-retained.k", payload: Array("1".utf8)))
    }

    cluster.nodes[leaderIndex].stop(signal: SIGKILL)
    let killed = ContinuousClock.now
    var failures: [JetStreamError] = []
    var stored: JetStreamPublishAck?
    while stored == nil && ContinuousClock.now - killed < .seconds(20) {
      let attempt = ContinuousClock.now
      do {
        stored = try JetStreamAPI.decodePublishAck(
          client.request("obs-retained.k", payload: Array("2".utf8), timeout: .seconds(1)))
      } catch let error as JetStreamError {
        failures.append(error)
        usleep(100_000)
      }
      XCTAssertLessThan(ContinuousClock.now - attempt, .seconds(2), "a store never hangs")
    }
    XCTAssertNotNil(stored, "no store succeeded within 20 s; failures: \(failures.suffix(3))")
    XCTAssertTrue(failures.allSatisfy(\.isTemporary), "\(failures)")
    // From the new leader, which has applied every store it acknowledged: a direct get may be
    // answered by a replica that has not applied the last one yet.
    let latest = try retrying(timeout: .seconds(5)) {
      try JetStreamAPI.decodeMessageGet(
        client.call(JetStreamAPI.lastMessageFromLeader(stream: "OBS", subject: "obs-retained.k")))
    }
    XCTAssertEqual(latest?.sequence, stored?.sequence)
    XCTAssertEqual(latest.map { Array($0.payload) }, Array("2".utf8))
  }

  /// Publishes `value` every 100 ms until the subscriber has it, up to 5 s.
  private func publishUntilReceived(
    _ publisher: NATSTestConnection, _ subscriber: NATSTestConnection, sid: UInt64, value: String,
    subject: String? = nil
  ) throws {
    let deadline = ContinuousClock.now + .seconds(5)
    let received = {
      subscriber.messages(sid: sid).contains { Array($0.payload) == Array(value.utf8) }
    }
    while !received() {
      guard ContinuousClock.now < deadline else {
        throw NATSTestFailure("'\(value)' never arrived; events: \(subscriber.events.suffix(5))")
      }
      try publisher.publish(subject ?? "cluster.\(value)", value)
      try? subscriber.run(until: { _ in received() }, timeout: .milliseconds(100))
    }
  }

  /// Runs `body` until it does not throw a temporary JetStream error, up to `timeout`.
  private func retrying<Value>(timeout: Duration, _ body: () throws -> Value) throws -> Value {
    let deadline = ContinuousClock.now + timeout
    while true {
      do {
        return try body()
      } catch let error as JetStreamError
        where (error.isTemporary || error == .request(.noResponders))
        && ContinuousClock.now < deadline
      {
        usleep(200_000)
      }
    }
  }
}
