import NATS

/// The retained values of a pattern, through an ephemeral `last_per_subject` consumer (2.9.10
/// has no multi-subject get), and clearing a retained value. Loop only.
extension ClusterLink {
  /// Starts a replay of the pattern's stored values for `gate`.
  func startReplay(for gate: RetainedGate) {
    guard let loop else { return gate.open(with: []) }
    nextReplay += 1
    let deliverSubject = state.withLock { $0.session.inboxPrefix } + "-r.\(nextReplay)"
    let replay = ClusterReplay(
      replay: JetStreamLastValuesReplay(
        stream: subjects.stream, filter: subjects.retained(gate.name),
        deliverSubject: deliverSubject),
      gate: gate)
    // The deliver subject is subscribed before the consumer exists: its first values may
    // come before the reply that creates it.
    guard let sid = state.withLock({ try? $0.session.subscribe(subject: deliverSubject) }) else {
      return gate.open(with: [])
    }
    replay.sid = sid
    replays[sid] = replay
    replay.timer = loop.schedule(in: .seconds(3)) { [self] in finish(replay) }
    let call = replay.replay.createRequest
    do throws(NATSCommandError) {
      try request(call.subject, payload: call.body, timeout: .seconds(2)) { [self] result in
        do throws(JetStreamError) {
          try replay.replay.consumerCreated(result)
          if replay.isFinished { finish(replay) }
        } catch {
          logger.warning(
            "retained values not read", metadata: ["pattern": "\(gate.name)", "error": "\(error)"])
          finish(replay)
        }
      }
    } catch {
      finish(replay)
    }
  }

  /// Ends a replay: its subscription and consumer go, and the gate opens with what came.
  func finish(_ replay: ClusterReplay) {
    guard replays.removeValue(forKey: replay.sid) != nil else { return }
    if let timer = replay.timer { loop?.cancel(timer) }
    state.withLock { $0.session.unsubscribe(sid: replay.sid) }
    if let delete = replay.replay.deleteRequest {
      // The server also removes it once its deliver subject has no interest; this is sooner.
      _ = try? request(delete.subject, payload: delete.body) { _ in }
    }
    flush()
    replay.gate.open(with: replay.replay.values.compactMap(retainedValue))
  }

  /// Removes `topic`'s retained value from JetStream; `completion` gets whether there was one,
  /// or `unavailable`. Any thread.
  func clearRetained(
    _ topic: String, completion: @escaping @Sendable (Result<Bool, ProtocolError>) -> Void
  ) {
    guard let loop else {
      return completion(.failure(ProtocolError(.unavailable, "the cluster link is not running")))
    }
    loop.execute { [self] in
      let call = JetStreamAPI.purge(stream: subjects.stream, subject: subjects.retained(topic))
      do throws(NATSCommandError) {
        try request(call.subject, payload: call.body, timeout: .seconds(3)) { result in
          do throws(JetStreamError) {
            completion(.success(try JetStreamAPI.decodePurge(result) > 0))
          } catch {
            completion(
              .failure(ProtocolError(.unavailable, "the cluster could not clear it: \(error)")))
          }
        }
      } catch {
        completion(
          .failure(ProtocolError(.unavailable, "the cluster could not clear it: \(error)")))
      }
    }
  }
}
