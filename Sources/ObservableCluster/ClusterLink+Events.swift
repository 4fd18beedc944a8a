import NATS

/// What the link does with what its connection receives: a new connection makes the
/// retained stream, and messages go to a replay or to local subscribers. Loop only.
extension ClusterLink {
  /// The connection reached a server that sent `info`.
  func connected(_ info: NATSServerInfo) {
    maxPayload.store(info.maxPayload, ordering: .relaxed)
    stream.ensure()
    history?.connected()
  }

  /// Delivers a message from NATS to the replay or the local subscribers its subscription
  /// stands for.
  func received(_ message: NATSMessage) {
    if replays.deliver(message) { return }
    if let history, history.deliver(message) { return }
    guard let registry, let target = state.withLock({ $0.targets[message.sid] }),
      let topic = subjects.topic(ofLive: message.subject)
    else { return }
    guard let count = ClusterLines.validate(message.payload, topic: topic) else {
      // NATS sends one copy per matching subscription (a topic and its patterns): the
      // message is counted through one of them only.
      state.withLock { state in
        if state.isFirstMatch(sid: message.sid, topic: topic) {
          state.counters.valuesRejected += 1
        }
      }
      return
    }
    inbound = message.headers?["Obs-Seq"].flatMap(UInt64.init).map { (topic, $0) }
    registry.deliverFromCluster(Array(message.payload), count: count, topic: topic, to: target)
    inbound = nil
    state.withLock { $0.counters.valuesIn += count }
  }

  /// Delivers a value JetStream stored as `sequence` to the local subscribers of `topic`;
  /// returns how many got it.
  func deliverLocally(_ line: [UInt8], topic: String, sequence: UInt64) -> Int {
    inbound = (topic, sequence)
    let receivers = registry?.deliverLocally(line, topic: topic) ?? 0
    inbound = nil
    return receivers
  }
}
