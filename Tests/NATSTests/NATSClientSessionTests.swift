import XCTest

@testable import NATS

/// The session's state machine, driven by hand-written server bytes and a fake clock.
final class NATSClientSessionTests: XCTestCase {
  private let start = ContinuousClock.now
  private let server = NATSServerURL(host: "127.0.0.1", port: 4222, credentials: .token("t"))
  private let info =
    #"INFO {"server_id":"S","max_payload":64,"headers":true,"connect_urls":["10.0.0.2:4222","10.0.0.3:4222"]}"#
    + "\r\n"

  private func makeSession() -> NATSClientSession {
    NATSClientSession(
      servers: [server], options: NATSConnectOptions(name: "test"), pingInterval: .seconds(1),
      maxPingsOut: 2, connectTimeout: .seconds(3), inboxToken: "TOKEN")
  }

  /// Feeds `text` at `seconds` after the start and returns the events and the bytes to send.
  private func feed(
    _ session: inout NATSClientSession, _ text: String, at seconds: Double = 0
  ) throws -> ([NATSSessionEvent], String) {
    var events: [NATSSessionEvent] = []
    try session.receive(Array(text.utf8), now: start + .seconds(seconds), events: &events)
    return (events, sent(&session))
  }

  private func tick(_ session: inout NATSClientSession, at seconds: Double) -> (
    [NATSSessionEvent], String
  ) {
    var events: [NATSSessionEvent] = []
    session.tick(now: start + .seconds(seconds), events: &events)
    return (events, sent(&session))
  }

  private func sent(_ session: inout NATSClientSession) -> String {
    var output: [UInt8] = []
    session.moveOutbound(into: &output)
    return String(decoding: output, as: UTF8.self)
  }

  /// A session through INFO and the first PONG.
  private func connectedSession() throws -> NATSClientSession {
    var session = makeSession()
    session.connectionOpened(to: server, now: start)
    _ = try feed(&session, info)
    _ = try feed(&session, "PONG\r\n")
    XCTAssertEqual(session.state, .connected)
    return session
  }

  func testHandshakeAnswersInfoWithConnectSubscriptionsAndPing() throws {
    var session = makeSession()
    let sid = try session.subscribe(subject: "obs.room.*")
    session.connectionOpened(to: server, now: start)
    XCTAssertEqual(sent(&session), "", "nothing is sent before the server's INFO")
    let (events, output) = try feed(&session, info)
    XCTAssertEqual(events, [])
    XCTAssertEqual(session.state, .awaitingPong)
    let lines = output.split(separator: "\r\n")
    XCTAssertEqual(lines.count, 3, output)
    XCTAssertTrue(
      lines[0].hasPrefix("CONNECT {") && lines[0].contains(#""auth_token":"t""#), output)
    XCTAssertEqual(lines[1], "SUB obs.room.* \(sid)")
    XCTAssertEqual(lines[2], "PING")
    let (connected, _) = try feed(&session, "PONG\r\n")
    XCTAssertEqual(
      connected,
      [
        .connected(
          NATSServerInfo(
            serverID: "S", maxPayload: 64, connectURLs: ["10.0.0.2:4222", "10.0.0.3:4222"]))
      ])
    XCTAssertEqual(session.state, .connected)
    XCTAssertEqual(session.maxPayload, 64)
    XCTAssertEqual(
      session.servers.servers.map(\.description),
      ["nats://127.0.0.1:4222", "nats://10.0.0.2:4222", "nats://10.0.0.3:4222"])
    XCTAssertEqual(
      session.servers.servers[2].credentials, .token("t"), "learnt servers share the credentials")
  }

  func testServerPingIsAnsweredWithPong() throws {
    var session = try connectedSession()
    XCTAssertEqual(try feed(&session, "PING\r\nPING\r\n").1, "PONG\r\nPONG\r\n")
  }

  func testPingsEveryIntervalAndDeadAfterMaxPingsOut() throws {
    var session = try connectedSession()
    XCTAssertEqual(session.nextDeadline, start + .seconds(1))
    XCTAssertEqual(tick(&session, at: 0.9).1, "", "no PING before the interval")
    XCTAssertEqual(tick(&session, at: 1.0).1, "PING\r\n")
    XCTAssertEqual(tick(&session, at: 2.0).1, "PING\r\n")
    let (events, output) = tick(&session, at: 3.0)
    XCTAssertEqual(events, [.dead(.pingTimeout)])
    XCTAssertEqual(output, "")
    XCTAssertEqual(session.state, .disconnected)
    XCTAssertEqual(session.counters.deadConnections, 1)
  }

  func testPongKeepsTheConnectionAlive() throws {
    var session = try connectedSession()
    for second in 1...10 {
      XCTAssertEqual(tick(&session, at: Double(second)).1, "PING\r\n")
      _ = try feed(&session, "PONG\r\n", at: Double(second) + 0.5)
    }
    XCTAssertEqual(session.state, .connected)
  }

  func testHandshakeThatDoesNotFinishIsDead() throws {
    var session = makeSession()
    session.connectionOpened(to: server, now: start)
    _ = try feed(&session, info)
    XCTAssertEqual(tick(&session, at: 2.9).0, [])
    XCTAssertEqual(tick(&session, at: 3.0).0, [.dead(.connectTimeout)])
  }

  func testMessagesGoToLiveSubscriptionsOnly() throws {
    var session = try connectedSession()
    let sid = try session.subscribe(subject: "a.>")
    XCTAssertEqual(sent(&session), "SUB a.> \(sid)\r\n")
    let (events, _) = try feed(&session, "MSG a.b \(sid) 2\r\nhi\r\nMSG a.b 999 2\r\nno\r\n")
    XCTAssertEqual(
      events, [.message(NATSMessage(subject: "a.b", sid: sid, payload: Array("hi".utf8)[...]))])
    XCTAssertEqual(session.counters.messagesReceived, 1, "only the live subscription's")
    session.unsubscribe(sid: sid)
    XCTAssertEqual(sent(&session), "UNSUB \(sid)\r\n")
    XCTAssertEqual(
      try feed(&session, "MSG a.b \(sid) 2\r\nhi\r\n").0, [], "late message after UNSUB")
  }

  func testReconnectResubscribesEverything() throws {
    var session = try connectedSession()
    let first = try session.subscribe(subject: "x.*")
    let second = try session.subscribe(subject: "y", queueGroup: "g")
    let third = try session.subscribe(subject: "z")
    session.unsubscribe(sid: third)
    var events: [NATSSessionEvent] = []
    session.connectionClosed(events: &events)
    XCTAssertThrowsError(try session.publish(subject: "x.1", payload: [UInt8]())) {
      XCTAssertEqual($0 as? NATSCommandError, .notConnected)
    }
    session.connectionOpened(to: server, now: start + .seconds(5))
    let output = try feed(&session, info, at: 5).1
    XCTAssertTrue(output.contains("\r\nSUB x.* \(first)\r\nSUB y g \(second)\r\nPING\r\n"), output)
    XCTAssertFalse(output.contains("SUB z"), output)
    _ = try feed(&session, "PONG\r\n", at: 5)
    XCTAssertEqual(session.counters.connections, 2)
  }

  func testRequestReplyTimeoutAndNoResponders() throws {
    var session = try connectedSession()
    let answered = try session.request(
      subject: "svc", payload: Array("q".utf8), timeout: .seconds(2), now: start)
    XCTAssertEqual(
      sent(&session), "SUB _INBOX.TOKEN.* 1\r\nPUB svc _INBOX.TOKEN.\(answered.value) 1\r\nq\r\n")
    let noOne = try session.request(
      subject: "nobody", payload: [UInt8](), timeout: .seconds(2), now: start)
    let silent = try session.request(
      subject: "slow", payload: [UInt8](), timeout: .seconds(2), now: start + .seconds(1))
    XCTAssertEqual(
      sent(&session),
      "PUB nobody _INBOX.TOKEN.\(noOne.value) 0\r\n\r\nPUB slow _INBOX.TOKEN.\(silent.value) 0\r\n\r\n",
      "one inbox subscription")
    XCTAssertEqual(session.nextDeadline, start + .seconds(1), "the ping comes first")

    let (replies, _) = try feed(
      &session,
      "MSG _INBOX.TOKEN.\(answered.value) 1 3\r\nyes\r\nHMSG _INBOX.TOKEN.\(noOne.value) 1 16 16\r\nNATS/1.0 503\r\n\r\n\r\n"
    )
    XCTAssertEqual(
      replies,
      [
        .reply(
          answered,
          .success(
            NATSMessage(
              subject: "_INBOX.TOKEN.\(answered.value)", sid: 1, payload: Array("yes".utf8)[...]))),
        .reply(noOne, .failure(.noResponders)),
      ])
    XCTAssertEqual(tick(&session, at: 2.9).0, [])
    XCTAssertEqual(tick(&session, at: 3.0).0, [.reply(silent, .failure(.timeout))])
    XCTAssertEqual(
      try feed(&session, "MSG _INBOX.TOKEN.\(silent.value) 1 0\r\n\r\n").0, [], "too late")
  }

  func testClosingFailsPendingRequests() throws {
    var session = try connectedSession()
    let id = try session.request(
      subject: "svc", payload: [UInt8](), timeout: .seconds(2), now: start)
    var events: [NATSSessionEvent] = []
    session.connectionClosed(events: &events)
    XCTAssertEqual(events, [.reply(id, .failure(.connectionLost))])
  }

  func testMaxPayloadFromInfoIsEnforcedAndErrorsAreEvents() throws {
    var session = try connectedSession()
    XCTAssertNoThrow(try session.publish(subject: "a", payload: [UInt8](repeating: 1, count: 64)))
    XCTAssertThrowsError(
      try session.publish(subject: "a", payload: [UInt8](repeating: 1, count: 65))
    ) {
      XCTAssertEqual($0 as? NATSCommandError, .payloadTooLarge(size: 65, maxPayload: 64))
    }
    XCTAssertEqual(
      try feed(&session, "-ERR 'Permissions Violation for Publish to \"a\"'\r\n").0,
      [.serverError("Permissions Violation for Publish to \"a\"")])
    let later =
      #"INFO {"max_payload":128,"connect_urls":["10.0.0.4:4222"],"ldm":true,"tls_required":true}"#
      + "\r\n"
    let (events, _) = try feed(&session, later)
    XCTAssertEqual(
      events,
      [
        .serverInfo(
          NATSServerInfo(
            maxPayload: 128, headers: false, connectURLs: ["10.0.0.4:4222"], lameDuckMode: true,
            tlsRequired: true))
      ])
    XCTAssertEqual(session.maxPayload, 128)
    XCTAssertEqual(session.servers.servers.count, 4)
  }

  func testRawBufferAndSliceEntryPointsBehaveLikeArrays() throws {
    var session = try connectedSession()
    let sid = try session.subscribe(subject: "a")
    _ = sent(&session)
    let bytes = Array("MSG a \(sid) 3\r\nabc\r\n".utf8)
    var events: [NATSSessionEvent] = []
    try bytes.withUnsafeBytes { try session.receive($0, now: start, events: &events) }
    XCTAssertEqual(
      events, [.message(NATSMessage(subject: "a", sid: sid, payload: Array("abc".utf8)[...]))])
    let value = Array("xxvaluexx".utf8)
    try session.publish(subject: "a", payload: value[2..<7])
    XCTAssertEqual(session.outboundByteCount, "PUB a 5\r\nvalue\r\n".utf8.count)
    XCTAssertEqual(sent(&session), "PUB a 5\r\nvalue\r\n")
    XCTAssertEqual(session.outboundByteCount, 0)
    XCTAssertEqual(session.counters.messagesPublished, 1)
    var output = Array("kept|".utf8)
    try session.publish(subject: "b", headers: NATSHeaders(), payload: value[2..<7])
    session.moveOutbound(into: &output)
    XCTAssertEqual(
      String(decoding: output, as: UTF8.self), "kept|HPUB b 12 17\r\nNATS/1.0\r\n\r\nvalue\r\n")
  }
}
