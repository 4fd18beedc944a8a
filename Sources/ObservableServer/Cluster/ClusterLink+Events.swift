import NATS

/// What the link does with the session's events. Loop only.
extension ClusterLink {
  /// Acts on events from the session, after its lock is released.
  func handle(_ events: [NATSSessionEvent]) {
    assertOnLoop()
    for event in events {
      switch event {
      case .connected(let info):
        let server = state.withLock { $0.session.servers.current.map { "\($0)" } ?? "?" }
        logger.notice(
          "cluster connected",
          metadata: [
            "server": "\(server)", "name": "\(info.serverName)",
            "jetstream": "\(info.jetStream)",
          ])
        maxPayload.store(info.maxPayload, ordering: .relaxed)
        ensureStream()
      case .serverInfo(let info):
        if info.lameDuckMode {
          logger.notice(
            "cluster server entering lame duck mode", metadata: ["name": "\(info.serverName)"])
        }
      case .message(let message):
        deliver(message)
      case .reply(let id, let result):
        replies.removeValue(forKey: id)?(result)
      case .serverError(let text):
        logger.warning("cluster server error", metadata: ["error": "\(text)"])
      case .dead(let failure):
        connectionLost("\(failure)")
      }
    }
  }

  /// Delivers a message from NATS to the local subscribers its subscription stands for.
  private func deliver(_ message: NATSMessage) {
    if let replay = replays[message.sid] {
      replay.delivered(message)
      if replay.isFinished { finish(replay) }
      return
    }
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

  /// Sends a request and keeps what to do with its reply; `false` when it could not be sent.
  @discardableResult
  func request(
    _ subject: String, headers: NATSHeaders? = nil, payload: [UInt8],
    timeout: Duration = .seconds(2),
    then completion: @escaping (Result<NATSMessage, NATSRequestError>) -> Void
  ) throws(NATSCommandError) -> NATSRequestID {
    let sent = state.withLock { state -> Result<NATSRequestID, NATSCommandError> in
      do throws(NATSCommandError) {
        return .success(
          try state.session.request(
            subject: subject, headers: headers, payload: payload, timeout: timeout, now: .now))
      } catch {
        return .failure(error)
      }
    }
    let id = try sent.get()
    replies[id] = completion
    flush()
    return id
  }
}
