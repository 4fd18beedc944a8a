import NATS
import ObservableWire

/// The retained values of a pattern, through an ephemeral `last_per_subject` consumer (2.9.10
/// has no multi-subject get), and clearing a retained value. Loop only.
extension ClusterLink {
  /// Starts a replay of the pattern's stored values for `gate`.
  func startReplay(for gate: RetainedGate) {
    startReplay(filter: subjects.retained(gate.name), headersOnly: false) { [self] stored in
      gate.open(with: stored.compactMap(retainedValue))
    }
  }

  /// Starts a replay of the last stored message of every subject `filter` matches; they go
  /// to `completion` once all have come, or what came after an error or 3 s. `headersOnly`
  /// leaves their payloads out, for a caller that needs the subjects only.
  func startReplay(
    filter: String, headersOnly: Bool,
    then completion: @escaping ([JetStreamStoredMessage]) -> Void
  ) {
    guard let loop else { return completion([]) }
    nextReplay += 1
    let deliverSubject = state.withLock { $0.session.inboxPrefix } + "-r.\(nextReplay)"
    let replay = ClusterReplay(
      replay: JetStreamLastValuesReplay(
        stream: subjects.stream, filter: filter, deliverSubject: deliverSubject,
        headersOnly: headersOnly),
      completion: completion)
    // The deliver subject is subscribed before the consumer exists: its first values may
    // come before the reply that creates it.
    guard let sid = state.withLock({ try? $0.session.subscribe(subject: deliverSubject) }) else {
      return completion([])
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
            "retained values not read", metadata: ["filter": "\(filter)", "error": "\(error)"])
          finish(replay)
        }
      }
    } catch {
      finish(replay)
    }
  }

  /// Ends a replay: its subscription and consumer go, and what came goes to its completion.
  func finish(_ replay: ClusterReplay) {
    guard replays.removeValue(forKey: replay.sid) != nil else { return }
    if let timer = replay.timer { loop?.cancel(timer) }
    state.withLock { $0.session.unsubscribe(sid: replay.sid) }
    if let delete = replay.replay.deleteRequest {
      // The server also removes it once its deliver subject has no interest; this is sooner.
      _ = try? request(delete.subject, payload: delete.body) { _ in }
    }
    flush()
    replay.completion(replay.replay.values)
  }

  /// The topics with a retained value in JetStream that `filter` (a name or a pattern) names
  /// or matches, all of them when it is `nil`, for `list`; `nil` when JetStream cannot be
  /// asked (no connection, no stream yet). Any thread; `completion` runs on the link's loop.
  ///
  /// A headers-only replay brings one small message per retained topic, whatever the size of
  /// the values, so a list costs one consumer and a message per matching retained topic.
  func retainedTopics(
    matching filter: String?, completion: @escaping @Sendable ([String]?) -> Void
  ) {
    guard let loop else { return completion(nil) }
    loop.execute { [self] in
      guard !stopped, streamReady, isConnected else { return completion(nil) }
      startReplay(filter: subjects.retained(filter ?? ">"), headersOnly: true) { [self] stored in
        completion(stored.compactMap { subjects.topic(ofRetained: $0.subject) })
      }
    }
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
