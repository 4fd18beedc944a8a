import NATS
import ObservableWire

/// What connection threads ask of the link: NATS interest for local subscriptions, and
/// values for the other nodes. Any thread.
extension ClusterLink {
  /// Counts one more local subscription to `name`; the first makes the NATS subscription,
  /// which the session keeps across reconnections.
  func addInterest(_ name: String, isPattern: Bool) {
    let subject = subjects.live(name)
    state.withLock { state in
      if let existing = state.interests[name] {
        state.interests[name] = (existing.count + 1, existing.sid)
        return
      }
      // Names are checked tokens, so the subject is valid.
      guard let sid = try? state.session.subscribe(subject: subject) else { return }
      state.interests[name] = (1, sid)
      state.targets[sid] = isPattern ? .pattern(name) : .topic(name)
    }
    scheduleFlush()
  }

  /// Counts one local subscription to `name` less; the last removes the NATS subscription.
  func removeInterest(_ name: String) {
    state.withLock { state in
      guard let existing = state.interests[name] else { return }
      guard existing.count <= 1 else {
        state.interests[name] = (existing.count - 1, existing.sid)
        return
      }
      state.interests[name] = nil
      state.targets[existing.sid] = nil
      state.session.unsubscribe(sid: existing.sid)
    }
    scheduleFlush()
  }

  /// Sends `lines` (`count` delivery lines of `topic`, already delivered here) to the other
  /// nodes; without a connection they are dropped, as at most once allows.
  package func forward(_ lines: [UInt8], count: Int, topic: String) {
    let wake = state.withLock { state -> Bool in
      guard state.session.state == .connected,
        state.session.outboundByteCount + state.unsentBytes < Self.outboundLimit
      else {
        state.counters.valuesDropped += count
        return false
      }
      if state.lastTopic != topic {
        state.lastTopic = topic
        state.lastSubject = subjects.live(topic)
      }
      let subject = state.lastSubject
      // With history each value is a message of its own, so that it has its own sequence.
      let pieces =
        history == nil
        ? ClusterLines.pieces(lines, limit: state.session.maxPayload) : ClusterLines.split(lines)
      for piece in pieces {
        guard (try? state.session.publish(subject: subject, payload: piece)) != nil else {
          state.counters.valuesDropped += count
          return false
        }
      }
      state.counters.valuesOut += count
      defer { state.flushScheduled = true }
      return !state.flushScheduled
    }
    if wake { loop?.execute { [self] in connection.flush() } }
  }

  /// Queues a flush on the loop unless one is queued; for callers holding no lock.
  func scheduleFlush() {
    let needed = state.withLock { state in
      defer { state.flushScheduled = true }
      return !state.flushScheduled
    }
    if needed { loop?.execute { [self] in connection.flush() } }
  }

  /// Whether a delivery line of `lineBytes` fits the NATS servers' `max_payload`; a publish
  /// that does not leaves the batched path for the one that refuses it with an error.
  package func fits(lineBytes: Int) -> Bool {
    lineBytes <= maxPayload.load(ordering: .relaxed)
  }

  /// Refuses a value whose delivery line would pass the NATS servers' `max_payload`, before
  /// it is delivered anywhere: NATS closes a connection that sends one.
  package func checkSize(lineBytes: Int) throws(ProtocolError) {
    let limit = maxPayload.load(ordering: .relaxed)
    guard lineBytes <= limit else {
      throw ProtocolError(
        .limitExceeded,
        "a value of this size (\(lineBytes) bytes with its line) passes the cluster's NATS max_payload of \(limit) bytes"
      )
    }
  }

  /// Whether the NATS connection is up, so that values reach the other nodes.
  package var isConnected: Bool { state.withLock { $0.session.state == .connected } }

  /// The stored value whose live copy the link is delivering now, when the caller runs on the
  /// link's loop inside that delivery; `nil` elsewhere.
  func currentInbound() -> (topic: String, sequence: UInt64)? {
    guard let loop, loop.inLoop else { return nil }
    return inbound
  }

  /// The link's state and counters at one moment, for `stats` and `/metrics`.
  package func status() -> (
    connected: Bool, server: String, counters: ClusterCounters, reconnects: Int,
    subscriptions: Int
  ) {
    state.withLock {
      (
        $0.session.state == .connected, $0.session.servers.current.map { "\($0)" } ?? "",
        $0.counters, max($0.session.counters.connections - 1, 0), $0.interests.count
      )
    }
  }

  /// The `cluster` object of `stats`.
  package func statusJSON() -> String {
    let (connected, server, counters, reconnects, interests) = status()
    let fields: [(String, Int)] = [
      ("values_in", counters.valuesIn), ("values_out", counters.valuesOut),
      ("values_dropped", counters.valuesDropped), ("values_rejected", counters.valuesRejected),
      ("retained_stored", counters.retainedStored), ("retained_failed", counters.retainedFailed),
      ("reconnects", reconnects),
      ("disconnects", counters.disconnects), ("subscriptions", interests),
    ]
    return "{\"connected\":\(connected),\"server\":\"\(connected ? server : "")\","
      + fields.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}"
  }
}
