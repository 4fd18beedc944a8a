import Foundation
import Glibc
import XCTest

@testable import NATS

/// Drives a ``NATSClientSession`` over a blocking socket, as the server's event loop will:
/// bytes in, events and bytes out, ticks by the session's deadline, reconnection on loss.
///
/// Every wait has a deadline, so a test waiting for something that never comes fails.
final class NATSTestConnection {
  /// The session, which tests also call directly.
  var session: NATSClientSession
  private var fd: Int32 = -1
  /// Every event so far, in order.
  private(set) var events: [NATSSessionEvent] = []
  /// The servers connected to, in order, one entry per handshake.
  private(set) var connections: [NATSServerURL] = []
  /// Replies by request, taken out by ``request(_:payload:headers:timeout:)``.
  private var replies: [NATSRequestID: Result<NATSMessage, NATSRequestError>] = [:]
  private var policy = NATSReconnectPolicy(
    initialDelay: .milliseconds(50), maxDelay: .milliseconds(500))

  /// Connects to the first of `servers` and, unless told otherwise, completes the handshake.
  init(
    servers: [NATSServerURL], name: String, pingInterval: Duration = .seconds(2),
    waitForHandshake: Bool = true
  ) throws {
    session = NATSClientSession(
      servers: servers, options: NATSConnectOptions(name: name), pingInterval: pingInterval)
    try open()
    if waitForHandshake {
      try run(until: { $0.session.state == .connected }, timeout: .seconds(5))
    }
  }

  /// Connects to a single local server.
  convenience init(port: UInt16, name: String, waitForHandshake: Bool = true) throws {
    try self.init(
      servers: [NATSServerURL(host: "127.0.0.1", port: port)], name: name,
      waitForHandshake: waitForHandshake)
  }

  deinit { if fd >= 0 { close(fd) } }

  /// Opens a socket to the pool's next server, waiting the back-off first.
  private func open() throws {
    var generator = SystemRandomNumberGenerator()
    let attempt = session.servers.nextAttempt(policy: policy, using: &generator)
    if attempt.delay > .zero { Thread.sleep(forTimeInterval: seconds(attempt.delay)) }
    do {
      fd = try NATSSocket.connect(
        host: attempt.server.host, port: attempt.server.port, timeout: .seconds(1))
    } catch {
      session.servers.attemptFailed()
      throw error
    }
    session.connectionOpened(to: attempt.server, now: .now)
  }

  /// Closes the socket and tries to open one to the next server.
  private func reconnect() {
    if fd >= 0 { close(fd) }
    fd = -1
    session.connectionClosed(events: &events)
    collectReplies()
    session.servers.attemptFailed()
    // One attempt per turn of the loop, so that the caller's deadline bounds the retries.
    _ = try? open()
  }

  /// Runs the loop until `condition` holds, failing after `timeout`.
  func run(until condition: (NATSTestConnection) -> Bool, timeout: Duration = .seconds(5)) throws {
    let deadline = ContinuousClock.now + timeout
    while !condition(self) {
      let now = ContinuousClock.now
      guard now < deadline else {
        throw NATSTestFailure("condition not met within \(timeout); events: \(events.suffix(5))")
      }
      try step(until: min(deadline, session.nextDeadline ?? deadline, now + .milliseconds(100)))
    }
  }

  /// One turn of the loop: send, wait for bytes or the next deadline, receive, tick.
  private func step(until wake: ContinuousClock.Instant) throws {
    guard fd >= 0 else {
      _ = try? open()
      return
    }
    var output: [UInt8] = []
    session.moveOutbound(into: &output)
    if !output.isEmpty && (try? NATSSocket.sendAll(fd, output)) == nil { return reconnect() }
    guard let bytes = NATSSocket.receive(fd, timeout: max(wake - .now, .zero)) else {
      return reconnect()
    }
    let handshakeDone = session.state == .connected
    let seen = events.count
    do {
      try session.receive(bytes, now: .now, events: &events)
    } catch {
      events.append(.serverError("protocol: \(error)"))
      return reconnect()
    }
    session.tick(now: .now, events: &events)
    if !handshakeDone && session.state == .connected, let current = session.servers.current {
      connections.append(current)
    }
    collectReplies()
    if events[seen...].contains(where: { if case .dead = $0 { true } else { false } }) {
      reconnect()
    }
  }

  private func collectReplies() {
    for case .reply(let id, let result) in events where replies[id] == nil {
      replies[id] = result
    }
  }

  /// The messages received so far for subscription `sid`.
  func messages(sid: UInt64) -> [NATSMessage] {
    events.compactMap {
      if case .message(let message) = $0, message.sid == sid { return message }
      return nil
    }
  }

  /// Subscribes and waits until the server has it (a PING round trip).
  func subscribe(_ subject: String) throws -> UInt64 {
    let sid = try session.subscribe(subject: subject)
    try flush()
    return sid
  }

  /// Publishes a payload.
  func publish(
    _ subject: String, _ text: String, headers: NATSHeaders? = nil, replyTo: String? = nil
  )
    throws
  {
    try session.publish(
      subject: subject, replyTo: replyTo, headers: headers, payload: Array(text.utf8))
    try step(until: .now)
  }

  /// Sends a PING and waits for its PONG, so that everything sent before reached the server.
  func flush(timeout: Duration = .seconds(5)) throws {
    let ping = session.sendPing()
    try run(until: { $0.session.pongsReceived >= ping }, timeout: timeout)
  }

  /// Sends a request and runs the loop until its reply or failure.
  func request(
    _ subject: String, payload: [UInt8] = [], headers: NATSHeaders? = nil,
    timeout: Duration = .seconds(3)
  ) throws -> Result<NATSMessage, NATSRequestError> {
    let id = try session.request(
      subject: subject, headers: headers, payload: payload, timeout: timeout, now: .now)
    try run(until: { $0.replies[id] != nil }, timeout: timeout + .seconds(2))
    return replies.removeValue(forKey: id)!
  }

  /// Runs a JetStream call.
  func call(_ request: JetStreamRequest, timeout: Duration = .seconds(5)) throws
    -> Result<NATSMessage, NATSRequestError>
  {
    try self.request(request.subject, payload: request.body, timeout: timeout)
  }

  private func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
  }
}
