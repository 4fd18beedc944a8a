/// The commands a caller gives the session: subscriptions, publishes and requests.
extension NATSClientSession {
  /// Sends a PING, and returns the number ``pongsReceived`` reaches when its PONG comes:
  /// a flush, to know that subscriptions before it are in place.
  public mutating func sendPing() -> Int {
    encoder.ping(into: &outbound)
    pingsSent += 1
    return pingsSent
  }

  /// Sends SUB for every subscription, as a new connection needs; called on each handshake.
  public mutating func resubscribe() {
    for (sid, subscription) in subscriptions.sorted(by: { $0.key < $1.key }) {
      // Subjects were checked when the subscription was made.
      try? encoder.subscribe(
        subject: subscription.subject, queueGroup: subscription.queueGroup, sid: sid,
        into: &outbound)
    }
  }

  /// Subscribes to `subject` (a pattern may use `*` and `>`); kept across reconnections.
  public mutating func subscribe(subject: String, queueGroup: String? = nil)
    throws(NATSCommandError) -> UInt64
  {
    var command: [UInt8] = []
    try encoder.subscribe(subject: subject, queueGroup: queueGroup, sid: nextSID, into: &command)
    let sid = nextSID
    nextSID += 1
    subscriptions[sid] = Subscription(subject: subject, queueGroup: queueGroup)
    if state == .connected || state == .awaitingPong { outbound.append(contentsOf: command) }
    return sid
  }

  /// Removes a subscription; messages already on their way for it are dropped.
  public mutating func unsubscribe(sid: UInt64) {
    guard subscriptions.removeValue(forKey: sid) != nil else { return }
    if state == .connected || state == .awaitingPong {
      encoder.unsubscribe(sid: sid, into: &outbound)
    }
  }

  /// Publishes a message, with headers if `headers` is not `nil`.
  public mutating func publish(
    subject: String, replyTo: String? = nil, headers: NATSHeaders? = nil, payload: [UInt8]
  ) throws(NATSCommandError) {
    try send(subject: subject, replyTo: replyTo, headers: headers, payload: payload)
  }

  /// Publishes a message, with headers if `headers` is not `nil`.
  ///
  /// Each public entry point takes a concrete payload type, because a public generic is not
  /// specialised in the server's module, and this runs for every clustered value.
  public mutating func publish(
    subject: String, replyTo: String? = nil, headers: NATSHeaders? = nil,
    payload: ArraySlice<UInt8>
  ) throws(NATSCommandError) {
    try send(subject: subject, replyTo: replyTo, headers: headers, payload: payload)
  }

  private mutating func send(
    subject: String, replyTo: String?, headers: NATSHeaders?, payload: some Collection<UInt8>
  ) throws(NATSCommandError) {
    guard state == .connected else { throw .notConnected }
    if let headers {
      try encoder.encodePublish(
        subject: subject, replyTo: replyTo, headers: headers, payload: payload, into: &outbound)
    } else {
      try encoder.encodePublish(
        subject: subject, replyTo: replyTo, payload: payload, into: &outbound)
    }
    counters.messagesPublished += 1
  }

  /// Publishes a request whose reply comes back as a `.reply` event, or fails by `timeout`.
  public mutating func request(
    subject: String, headers: NATSHeaders? = nil, payload: [UInt8], timeout: Duration,
    now: ContinuousClock.Instant
  ) throws(NATSCommandError) -> NATSRequestID {
    try request(
      subject: subject, headers: headers, payload: payload[...], timeout: timeout, now: now)
  }

  /// Publishes a request whose reply comes back as a `.reply` event, or fails by `timeout`.
  public mutating func request(
    subject: String, headers: NATSHeaders? = nil, payload: ArraySlice<UInt8>,
    timeout: Duration, now: ContinuousClock.Instant
  ) throws(NATSCommandError) -> NATSRequestID {
    guard state == .connected else { throw .notConnected }
    if inboxSID == nil { inboxSID = try subscribe(subject: inboxPrefix + ".*") }
    let id = requests.add(deadline: now + timeout)
    do {
      try send(
        subject: subject, replyTo: "\(inboxPrefix).\(id.value)", headers: headers,
        payload: payload)
    } catch {
      _ = requests.remove(id)
      throw error
    }
    return id
  }

  /// Stops waiting for a request; a reply that comes later is dropped.
  public mutating func cancel(_ id: NATSRequestID) {
    _ = requests.remove(id)
  }
}
