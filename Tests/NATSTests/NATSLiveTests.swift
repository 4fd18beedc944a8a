import Foundation
import XCTest

@testable import NATS

/// The client protocol against a real `nats-server` started by each test.
final class NATSLiveTests: XCTestCase {
  private func text(_ message: NATSMessage) -> String {
    String(decoding: message.payload, as: UTF8.self)
  }

  func testConnectReportsTheServersInfo() throws {
    let server = try NATSServerProcess.startSingle(self)
    let client = try NATSTestConnection(port: server.port, name: "connect")
    guard case .connected(let info) = client.events.first else {
      return XCTFail("first event: \(client.events)")
    }
    XCTAssertTrue(info.headers)
    XCTAssertTrue(info.jetStream)
    XCTAssertEqual(info.maxPayload, 1_048_576)
    XCTAssertEqual(client.connections.map(\.port), [server.port])
  }

  func testCredentialsComeFromTheURL() throws {
    let server = try NATSServerProcess.startSingle(
      self, extra: "authorization { user: alice, password: \"s@cret\" }")
    let good = try NATSServerURL(parsing: "nats://alice:s%40cret@127.0.0.1:\(server.port)")
    let client = try NATSTestConnection(servers: [good], name: "good")
    guard case .connected(let info) = client.events.first else {
      return XCTFail("first event: \(client.events)")
    }
    XCTAssertTrue(info.authRequired)

    let bad = try NATSServerURL(parsing: "nats://alice:wrong@127.0.0.1:\(server.port)")
    let refused = try NATSTestConnection(servers: [bad], name: "bad", waitForHandshake: false)
    try refused.run(until: { $0.events.contains(.serverError("Authorization Violation")) })
    XCTAssertNotEqual(refused.session.state, .connected)
  }

  func testTokenComesFromTheURL() throws {
    let server = try NATSServerProcess.startSingle(self, extra: "authorization { token: t0k3n }")
    let url = try NATSServerURL(parsing: "nats://t0k3n@127.0.0.1:\(server.port)")
    let client = try NATSTestConnection(servers: [url], name: "token")
    XCTAssertEqual(client.session.state, .connected)
    let anonymous = try NATSTestConnection(
      port: server.port, name: "anonymous", waitForHandshake: false)
    try anonymous.run(until: { $0.events.contains(.serverError("Authorization Violation")) })
  }

  func testPublishReachesExactAndWildcardSubscribers() throws {
    let server = try NATSServerProcess.startSingle(self)
    let publisher = try NATSTestConnection(port: server.port, name: "publisher")
    let subscriber = try NATSTestConnection(port: server.port, name: "subscriber")
    let exact = try subscriber.subscribe("obs.room.1")
    let single = try subscriber.subscribe("obs.room.*")
    let tail = try subscriber.subscribe("obs.>")
    for (subject, value) in [("obs.room.1", "a"), ("obs.room.2", "b"), ("obs.room.2.x", "c")] {
      try publisher.publish(subject, value)
    }
    try subscriber.run(until: { $0.messages(sid: tail).count == 3 })
    try subscriber.flush()
    XCTAssertEqual(subscriber.messages(sid: exact).map(text), ["a"])
    XCTAssertEqual(subscriber.messages(sid: single).map(text), ["a", "b"])
    XCTAssertEqual(
      subscriber.messages(sid: tail).map(\.subject), ["obs.room.1", "obs.room.2", "obs.room.2.x"])
  }

  func testOwnPublishesAreNotEchoed() throws {
    let server = try NATSServerProcess.startSingle(self)
    let node = try NATSTestConnection(port: server.port, name: "node")
    let other = try NATSTestConnection(port: server.port, name: "other")
    let own = try node.subscribe("echo.test")
    let remote = try other.subscribe("echo.test")
    try node.publish("echo.test", "mine")
    try other.run(until: { $0.messages(sid: remote).count == 1 })
    // The PONG comes after anything the server would have delivered for the earlier PUB.
    try node.flush()
    XCTAssertEqual(node.messages(sid: own), [])
    try other.publish("echo.test", "theirs")
    try node.run(until: { $0.messages(sid: own).count == 1 })
    XCTAssertEqual(node.messages(sid: own).map(text), ["theirs"])
  }

  func testHeadersArriveAsSent() throws {
    let server = try NATSServerProcess.startSingle(self)
    let publisher = try NATSTestConnection(port: server.port, name: "publisher")
    let subscriber = try NATSTestConnection(port: server.port, name: "subscriber")
    let sid = try subscriber.subscribe("h.>")
    var headers = NATSHeaders()
    headers.append(name: "Obs-Origin", value: "node-a")
    headers.append(name: "Obs-Retained", value: "1")
    try publisher.publish("h.1", "{\"v\":1}", headers: headers, replyTo: "h.reply")
    try subscriber.run(until: { $0.messages(sid: sid).count == 1 })
    let message = subscriber.messages(sid: sid)[0]
    XCTAssertEqual(message.headers?["obs-origin"], "node-a")
    XCTAssertEqual(message.headers?.fields, headers.fields)
    XCTAssertEqual(message.replyTo, "h.reply")
    XCTAssertEqual(text(message), "{\"v\":1}")
  }

  func testRequestReplyNoRespondersAndTimeout() throws {
    let server = try NATSServerProcess.startSingle(self)
    let requester = try NATSTestConnection(port: server.port, name: "requester")
    let responder = try NATSTestConnection(port: server.port, name: "responder")
    let service = try responder.subscribe("svc.double")
    _ = try responder.subscribe("svc.silent")

    let id = try requester.session.request(
      subject: "svc.double", payload: Array("21".utf8), timeout: .seconds(3), now: .now)
    try requester.flush()
    try responder.run(until: { $0.messages(sid: service).count == 1 })
    let question = responder.messages(sid: service)[0]
    let replyTo = try XCTUnwrap(question.replyTo)
    XCTAssertTrue(replyTo.hasPrefix(requester.session.inboxPrefix + "."))
    try responder.publish(replyTo, String(2 * Int(text(question))!))
    try requester.run(until: { connection in
      connection.events.contains { if case .reply(id, _) = $0 { true } else { false } }
    })
    XCTAssertTrue(
      requester.events.contains(
        .reply(
          id,
          .success(
            NATSMessage(
              subject: replyTo, sid: 1, payload: Array("42".utf8)[...])))), "\(requester.events)")

    XCTAssertEqual(try requester.request("svc.nobody"), .failure(.noResponders))
    let started = ContinuousClock.now
    XCTAssertEqual(
      try requester.request("svc.silent", timeout: .milliseconds(300)), .failure(.timeout))
    XCTAssertGreaterThanOrEqual(ContinuousClock.now - started, .milliseconds(300))
  }

  func testPayloadOverMaxPayloadIsRefusedAndTheConnectionLives() throws {
    let server = try NATSServerProcess.startSingle(self, extra: "max_payload: 4096")
    let publisher = try NATSTestConnection(port: server.port, name: "publisher")
    let subscriber = try NATSTestConnection(port: server.port, name: "subscriber")
    let sid = try subscriber.subscribe("big")
    XCTAssertEqual(publisher.session.maxPayload, 4096)
    let largest = String(repeating: "x", count: 4096)
    try publisher.publish("big", largest)
    XCTAssertThrowsError(try publisher.publish("big", largest + "x")) {
      XCTAssertEqual($0 as? NATSCommandError, .payloadTooLarge(size: 4097, maxPayload: 4096))
    }
    try publisher.flush()
    try publisher.publish("big", "after")
    try subscriber.run(until: { $0.messages(sid: sid).count == 2 })
    XCTAssertEqual(subscriber.messages(sid: sid).map(\.payload.count), [4096, 5])
    XCTAssertEqual(publisher.connections.count, 1, "no reconnection")
    XCTAssertFalse(publisher.events.contains { if case .serverError = $0 { true } else { false } })
  }

  func testLargestPayloadArrivesIntactAcrossManyReads() throws {
    let server = try NATSServerProcess.startSingle(self)
    let publisher = try NATSTestConnection(port: server.port, name: "publisher")
    let subscriber = try NATSTestConnection(port: server.port, name: "subscriber")
    let sid = try subscriber.subscribe("large")
    // A pattern that differs at every offset, so a misplaced byte shows.
    let payloads = [publisher.session.maxPayload, 1, 0, 70_000].map { size in
      (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 8 &+ size) }
    }
    for payload in payloads {
      try publisher.session.publish(subject: "large", payload: payload)
    }
    try publisher.flush()
    try subscriber.run(until: { $0.messages(sid: sid).count == payloads.count })
    XCTAssertEqual(subscriber.messages(sid: sid).map { Array($0.payload) }, payloads)
  }
}
