/// A NATS client connection's state, without I/O: fed bytes and the time, it returns bytes to
/// send and events.
///
/// The caller owns the socket and the timer. After connecting it calls
/// ``connectionOpened(to:now:)``, then ``receive(_:now:events:)`` with what it reads,
/// ``tick(now:events:)`` by ``nextDeadline``, and sends what ``moveOutbound(into:)`` gives.
/// On `.dead`, EOF or an error it closes the socket, calls ``connectionClosed(events:)``, and
/// reconnects; the subscriptions survive and are sent again on the new connection.
public struct NATSClientSession: Sendable {
  /// Where the connection is in its life.
  public enum State: Sendable, Equatable {
    /// No connection, or one declared dead.
    case disconnected
    /// Connected at the TCP level, waiting for the server's INFO.
    case awaitingInfo
    /// CONNECT and PING sent, waiting for the PONG that confirms them.
    case awaitingPong
    /// Commands reach the server.
    case connected
  }

  /// A subscription the session keeps across reconnections.
  public struct Subscription: Sendable, Equatable {
    /// The subject or pattern.
    public var subject: String
    /// The queue group, if any.
    public var queueGroup: String?
  }

  /// Where the connection is.
  public private(set) var state = State.disconnected
  /// The latest INFO of the current server.
  public private(set) var serverInfo: NATSServerInfo?
  /// What CONNECT says; its credentials are replaced by those of each server's URL.
  public var options: NATSConnectOptions
  /// How often the client sends a PING.
  public let pingInterval: Duration
  /// How many PINGs in a row may go unanswered, with nothing else heard from the server, before
  /// the connection is declared dead.
  public let maxPingsOut: Int
  /// How long INFO, CONNECT and the first PONG may take.
  public let connectTimeout: Duration
  /// The prefix of every reply subject, unique to this client.
  public let inboxPrefix: String
  /// The servers to connect to, with those learnt from INFO's `connect_urls`.
  public var servers: NATSServerPool
  /// PINGs sent on this connection, the handshake's included.
  public internal(set) var pingsSent = 0
  /// PONGs received on this connection; PONGs answer PINGs in order, so once this reaches
  /// the value ``sendPing()`` returned, the server has processed everything sent before it.
  public private(set) var pongsReceived = 0
  /// Messages in and out and connections, for `stats`.
  public internal(set) var counters = NATSSessionCounters()
  /// The subscriptions by sid, the inbox's included.
  public internal(set) var subscriptions: [UInt64: Subscription] = [:]

  private var parser = NATSProtocolParser()
  /// Writes commands; follows the server's `max_payload`. Internal for the commands'
  /// extension, in another file to keep each under the size limit.
  var encoder = NATSCommandEncoder()
  /// The bytes to send, taken by ``moveOutbound(into:)``.
  var outbound: [UInt8] = []
  /// The sid of the next subscription; sids are never reused, so a late message for an
  /// old one is dropped rather than misdelivered.
  var nextSID: UInt64 = 1
  /// The sid of the `_INBOX.<token>.*` subscription, made on the first request.
  var inboxSID: UInt64?
  /// The requests waiting for replies.
  var requests = NATSRequestTable()
  private var pingsOut = 0
  /// Whether any byte came from the server since the last PING the timer sent.
  ///
  /// Any byte is proof of life, as it is to nats-server, which sends no PING to a client it
  /// hears from: a PONG comes after every message the server queued before it, and a node
  /// that reads a backlog of deliveries slowly (a loaded machine; 64 KiB a turn of its loop)
  /// received 256 KiB after its oldest PING, with 110 KiB more unread in the socket, when it
  /// declared the server dead at 3.3 s and failed over. A server that stops sends nothing,
  /// and is found as quickly as before.
  private var heardSincePing = false
  private var timerDeadline: ContinuousClock.Instant?

  /// A session; `inboxToken` makes the inbox unique (tests fix it, others take a random one).
  public init(
    servers: [NATSServerURL], options: NATSConnectOptions, pingInterval: Duration = .seconds(2),
    maxPingsOut: Int = 2,
    connectTimeout: Duration = .seconds(2), inboxToken: String = NATSInbox.randomToken()
  ) {
    self.servers = NATSServerPool(configured: servers)
    self.options = options
    self.pingInterval = pingInterval
    self.maxPingsOut = maxPingsOut
    self.connectTimeout = connectTimeout
    self.inboxPrefix = "_INBOX.\(inboxToken)"
  }

  /// The largest payload the current server accepts, for the caller's own checks.
  public var maxPayload: Int { encoder.maxPayload }

  /// When ``tick(now:events:)`` must next be called: a PING, a handshake or request deadline.
  public var nextDeadline: ContinuousClock.Instant? {
    switch (timerDeadline, requests.earliestDeadline) {
    case (let timer?, let request?): min(timer, request)
    case (let timer, let request): timer ?? request
    }
  }

  /// Starts a new connection to `server`, whose credentials CONNECT will carry.
  public mutating func connectionOpened(to server: NATSServerURL, now: ContinuousClock.Instant) {
    parser.reset()
    outbound.removeAll(keepingCapacity: true)
    options.credentials = server.credentials
    state = .awaitingInfo
    pingsOut = 0
    heardSincePing = false
    pingsSent = 0
    pongsReceived = 0
    timerDeadline = now + connectTimeout
  }

  /// Forgets the connection: pending requests fail with `.connectionLost`, unsent bytes go.
  public mutating func connectionClosed(events: inout [NATSSessionEvent]) {
    state = .disconnected
    timerDeadline = nil
    outbound.removeAll(keepingCapacity: true)
    for id in requests.removeAll() { events.append(.reply(id, .failure(.connectionLost))) }
  }

  /// The bytes waiting to be taken by ``moveOutbound(into:)``, for the caller to bound
  /// what a slow server makes it hold.
  public var outboundByteCount: Int { outbound.count }

  /// Gives the bytes to send, leaving none: swapped when `output` is empty, else appended.
  public mutating func moveOutbound(into output: inout [UInt8]) {
    if output.isEmpty {
      swap(&output, &outbound)
    } else {
      output.append(contentsOf: outbound)
      outbound.removeAll(keepingCapacity: true)
    }
  }

  /// Reads bytes from the server; a thrown error means the connection must be dropped.
  public mutating func receive(
    _ bytes: UnsafeRawBufferPointer, now: ContinuousClock.Instant,
    events: inout [NATSSessionEvent]
  ) throws(NATSProtocolError) {
    if !bytes.isEmpty { heardSincePing = true }
    parser.append(bytes)
    try drain(now: now, events: &events)
  }

  /// Reads bytes from the server; a thrown error means the connection must be dropped.
  public mutating func receive(
    _ bytes: [UInt8], now: ContinuousClock.Instant, events: inout [NATSSessionEvent]
  ) throws(NATSProtocolError) {
    if !bytes.isEmpty { heardSincePing = true }
    parser.append(bytes)
    try drain(now: now, events: &events)
  }

  private mutating func drain(now: ContinuousClock.Instant, events: inout [NATSSessionEvent])
    throws(NATSProtocolError)
  {
    while let operation = try parser.next() {
      handle(operation, now: now, events: &events)
    }
  }

  private mutating func handle(
    _ operation: NATSServerOperation, now: ContinuousClock.Instant,
    events: inout [NATSSessionEvent]
  ) {
    switch operation {
    case .message(let message):
      if message.sid == inboxSID {
        guard let id = requests.remove(replySubject: message.subject, prefix: inboxPrefix)
        else { return }
        let noResponders = message.status == 503 && message.payload.isEmpty
        events.append(.reply(id, noResponders ? .failure(.noResponders) : .success(message)))
      } else if subscriptions[message.sid] != nil {
        counters.messagesReceived += 1
        events.append(.message(message))
      }
    case .ping:
      encoder.pong(into: &outbound)
    case .pong:
      pingsOut = 0
      pongsReceived += 1
      if state == .awaitingPong {
        state = .connected
        servers.connected()
        counters.connections += 1
        timerDeadline = now + pingInterval
        if let serverInfo { events.append(.connected(serverInfo)) }
      }
    case .info(let info):
      serverInfo = info
      encoder.maxPayload = info.maxPayload
      parser.setMaxPayload(info.maxPayload)
      servers.learn(connectURLs: info.connectURLs)
      if state == .awaitingInfo {
        encoder.connect(options, into: &outbound)
        resubscribe()
        _ = sendPing()
        state = .awaitingPong
      } else {
        events.append(.serverInfo(info))
      }
    case .ok:
      break
    case .error(let text):
      events.append(.serverError(text))
    }
  }

  /// Sends PINGs, declares a silent connection dead, and fails requests past their deadline.
  ///
  /// The caller reads what the socket holds first: a tick the loop ran late judges only
  /// what it has read, and bytes waiting unread are no less proof of life.
  public mutating func tick(now: ContinuousClock.Instant, events: inout [NATSSessionEvent]) {
    for id in requests.expire(now: now) { events.append(.reply(id, .failure(.timeout))) }
    guard let deadline = timerDeadline, deadline <= now else { return }
    switch state {
    case .disconnected:
      timerDeadline = nil
    case .awaitingInfo, .awaitingPong:
      connectionClosed(events: &events)
      counters.deadConnections += 1
      events.append(.dead(.connectTimeout))
    case .connected:
      if heardSincePing { pingsOut = 0 }
      guard pingsOut < maxPingsOut else {
        connectionClosed(events: &events)
        counters.deadConnections += 1
        events.append(.dead(.pingTimeout))
        return
      }
      pingsOut += 1
      heardSincePing = false
      _ = sendPing()
      timerDeadline = now + pingInterval
    }
  }
}
