import NATS
import ObservableWire

/// Retained values through JetStream: storing them, reading them back for new subscribers,
/// and the stream that holds them.
extension ClusterLink {
  /// Stores `value` (raw, validated JSON) as `topic`'s retained value, then delivers it here
  /// and to the other nodes. `completion` gets the local receivers, or `unavailable` once
  /// JetStream could not store it within the store timeout. Any thread.
  func storeRetained(
    _ value: [UInt8], topic: String,
    completion: @escaping @Sendable (Result<Int, ProtocolError>) -> Void
  ) {
    guard let loop else {
      return completion(.failure(ProtocolError(.unavailable, "the cluster link is not running")))
    }
    let size = value.count
    let admitted = state.withLock { state in
      guard state.pendingStoreBytes + size <= Self.pendingStoreLimit else { return false }
      state.pendingStoreBytes += size
      return true
    }
    guard admitted else {
      return completion(
        .failure(
          ProtocolError(
            .unavailable, "too many retained values are waiting for JetStream; try again later")))
    }
    let completion: @Sendable (Result<Int, ProtocolError>) -> Void = { [self] result in
      state.withLock { $0.pendingStoreBytes -= size }
      completion(result)
    }
    let deadline = ContinuousClock.now + configuration.storeTimeout
    loop.execute { [self] in
      storesStarted += 1
      let token = state.withLock { $0.session.inboxPrefix }
      attemptStore(
        PendingStore(
          topic: topic, value: value, messageID: "\(token).\(storesStarted)", deadline: deadline,
          completion: completion), lastError: "")
    }
  }

  private func attemptStore(_ store: PendingStore, lastError: String) {
    guard !stopped else { return fail(store, "the server is stopping") }
    var headers = NATSHeaders()
    // JetStream drops a second copy with the same id, so a retry after a lost ack stores once.
    headers.append(name: "Nats-Msg-Id", value: store.messageID)
    do throws(NATSCommandError) {
      try request(subjects.retained(store.topic), headers: headers, payload: store.value) {
        [self] result in
        do throws(JetStreamError) {
          let ack = try JetStreamAPI.decodePublishAck(result)
          stored(store, sequence: ack.sequence)
        } catch {
          if error.isTemporary {
            retry(store, error.description)
          } else {
            fail(store, error.description)
          }
        }
      }
    } catch {
      if case .payloadTooLarge = error {
        return store.completion(.failure(ProtocolError(.limitExceeded, error.description)))
      }
      retry(store, error.description)
    }
  }

  private func retry(_ store: PendingStore, _ reason: String) {
    let delay = Duration.milliseconds(250)
    guard let loop, !stopped, ContinuousClock.now + delay < store.deadline else {
      return fail(store, reason)
    }
    loop.schedule(in: delay) { [self] in attemptStore(store, lastError: reason) }
  }

  private func fail(_ store: PendingStore, _ reason: String) {
    state.withLock { $0.counters.retainedFailed += 1 }
    warnings.warn(
      .retainedNotStored, "retained value not stored",
      metadata: ["stream": "\(store.topic)", "reason": "\(reason)"])
    store.completion(
      .failure(
        ProtocolError(
          .unavailable, "the cluster could not store the retained value: \(reason)")))
  }

  /// JetStream has the value: it goes to local subscribers and, with its sequence, to the
  /// other nodes, whose new subscribers may have read it already.
  private func stored(_ store: PendingStore, sequence: UInt64) {
    var line = DeliveryEncoder.prefix(stream: store.topic)
    line.append(contentsOf: store.value)
    line.append(contentsOf: "}\n".utf8)
    inbound = (store.topic, sequence)
    let receivers = registry?.deliverLocally(line, topic: store.topic) ?? 0
    inbound = nil
    var headers = NATSHeaders()
    headers.append(name: "Obs-Seq", value: String(sequence))
    state.withLock { state in
      state.counters.retainedStored += 1
      if (try? state.session.publish(
        subject: subjects.live(store.topic), headers: headers, payload: line)) != nil
      {
        state.counters.valuesOut += 1
      } else {
        state.counters.valuesDropped += 1
      }
    }
    flush()
    store.completion(.success(receivers))
  }

  /// Reads the retained value(s) of the gate's name from JetStream and opens the gate with
  /// them; without a connection or a stream, opens it at once with none. Any thread.
  func fetchRetained(for gate: RetainedGate) {
    guard let loop else { return gate.open(with: []) }
    loop.execute { [self] in
      guard !stopped, streamReady, isConnected else { return gate.open(with: []) }
      if gate.isPattern {
        startReplay(for: gate)
      } else {
        directGet(for: gate, deadline: .now + .seconds(3))
      }
    }
  }

  private func directGet(for gate: RetainedGate, deadline: ContinuousClock.Instant) {
    let call = JetStreamAPI.directGetLast(
      stream: subjects.stream, subject: subjects.retained(gate.name))
    do throws(NATSCommandError) {
      try request(call.subject, payload: call.body, timeout: .seconds(1)) { [self] result in
        do throws(JetStreamError) {
          let stored = try JetStreamAPI.decodeDirectGet(result)
          gate.open(with: stored.flatMap(retainedValue).map { [$0] } ?? [])
        } catch {
          guard error.isTemporary, ContinuousClock.now + .milliseconds(200) < deadline,
            let loop
          else {
            logger.warning(
              "retained value not read", metadata: ["stream": "\(gate.name)", "error": "\(error)"])
            return gate.open(with: [])
          }
          loop.schedule(in: .milliseconds(200)) { [self] in directGet(for: gate, deadline: deadline)
          }
        }
      }
    } catch {
      gate.open(with: [])
    }
  }

  /// A stored message as a value for subscribers, if it is valid JSON of a topic.
  func retainedValue(_ stored: JetStreamStoredMessage) -> ClusterRetainedValue? {
    guard let topic = subjects.topic(ofRetained: stored.subject) else { return nil }
    let value = Array(stored.payload)
    let valid = value.withUnsafeBytes { bytes in
      (try? JSONScanner.scanValue(bytes)).map { $0.range == 0..<bytes.count } ?? false
    }
    return valid ? ClusterRetainedValue(topic: topic, sequence: stored.sequence, value: value) : nil
  }

  /// Makes (or updates) the stream of retained values: one message per subject, replicated
  /// on as many servers as configured, or as the NATS cluster has if fewer.
  func ensureStream() {
    let known = state.withLock { $0.session.servers.servers.count }
    createStream(replicas: min(configuration.replicas, max(known, 1)), update: false)
  }

  private func createStream(replicas: Int, update: Bool) {
    let config = JetStreamStreamConfig(
      name: subjects.stream, subjects: [subjects.retained + ".>"], maxMessagesPerSubject: 1,
      replicas: replicas, allowDirect: true)
    let call = update ? JetStreamAPI.updateStream(config) : JetStreamAPI.createStream(config)
    do throws(NATSCommandError) {
      try request(call.subject, payload: call.body, timeout: .seconds(5)) { [self] result in
        do throws(JetStreamError) {
          _ = try JetStreamAPI.decodeStreamInfo(result)
          streamReady = true
          logger.info(
            "cluster retained stream ready",
            metadata: ["stream": "\(subjects.stream)", "replicas": "\(replicas)"])
        } catch {
          streamFailed(error, replicas: replicas, update: update)
        }
      }
    } catch {
      // Not connected: the next connection tries again.
    }
  }

  private func streamFailed(_ error: JetStreamError, replicas: Int, update: Bool) {
    if case .api(let apiError) = error, apiError.errorCode == JetStreamAPIError.streamNameInUse {
      return createStream(replicas: replicas, update: true)
    }
    if update {
      // Another node made it with other settings; it holds retained values all the same.
      streamReady = true
      logger.warning("cluster retained stream kept as it was", metadata: ["error": "\(error)"])
      return
    }
    if !error.isTemporary, replicas > 1 {
      return createStream(replicas: replicas - 1, update: false)
    }
    logger.warning("cluster retained stream not ready", metadata: ["error": "\(error)"])
    loop?.schedule(in: .seconds(1)) { [self] in
      if !stopped, !streamReady, isConnected { createStream(replicas: replicas, update: false) }
    }
  }
}

/// A retained publish waiting for JetStream's acknowledgement.
struct PendingStore {
  /// The topic whose retained value it is.
  var topic: String
  /// The raw JSON value.
  var value: [UInt8]
  /// The `Nats-Msg-Id` every attempt carries, for JetStream to store it once.
  var messageID: String
  /// When retrying stops and the publish fails with `unavailable`.
  var deadline: ContinuousClock.Instant
  /// Gets the local receivers or the error, once.
  var completion: @Sendable (Result<Int, ProtocolError>) -> Void
}
