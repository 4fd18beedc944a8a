import NATS
import ObservableWire

/// Storing retained values in JetStream: each publish waits for JetStream's acknowledgement,
/// retried with the same message id until the store timeout, then goes to local subscribers
/// and, with its sequence, to the other nodes. The bytes waiting are bounded over all
/// clients. Loop only, but for ``store(_:topic:completion:)``.
package final class RetainedStore: @unchecked Sendable {
  // Unchecked: every member but `link` is touched on the link's loop only; the methods
  // that other threads call hop to the loop first.

  /// The store of `link`, which owns it.
  init(link: ClusterLink) {
    self.link = link
  }

  /// The link whose connection the publishes go through and whose subscribers get the values.
  unowned let link: ClusterLink
  /// Retained publishes started, for their `Nats-Msg-Id`.
  private var started = 0

  /// Stores `value` (raw, validated JSON) as `topic`'s retained value, then delivers it here
  /// and to the other nodes. `completion` gets the local receivers, or `unavailable` once
  /// JetStream could not store it within the store timeout. Any thread.
  func store(
    _ value: [UInt8], topic: String,
    completion: @escaping @Sendable (Result<Int, ProtocolError>) -> Void
  ) {
    guard let loop = link.loop else {
      return completion(.failure(ProtocolError(.unavailable, "the cluster link is not running")))
    }
    let size = value.count
    let admitted = link.state.withLock { state in
      guard state.pendingStoreBytes + size <= ClusterLink.pendingStoreLimit else { return false }
      state.pendingStoreBytes += size
      return true
    }
    guard admitted else {
      return completion(
        .failure(
          ProtocolError(
            .unavailable, "too many retained values are waiting for JetStream; try again later")))
    }
    let completion: @Sendable (Result<Int, ProtocolError>) -> Void = { [link] result in
      link.state.withLock { $0.pendingStoreBytes -= size }
      completion(result)
    }
    let deadline = ContinuousClock.now + link.configuration.storeTimeout
    loop.execute { [self] in
      started += 1
      let token = link.state.withLock { $0.session.inboxPrefix }
      attempt(
        PendingStore(
          topic: topic, value: value, messageID: "\(token).\(started)", deadline: deadline,
          completion: completion), lastError: "")
    }
  }

  private func attempt(_ store: PendingStore, lastError: String) {
    guard !link.connection.stopped else { return fail(store, "the server is stopping") }
    var headers = NATSHeaders()
    // JetStream drops a second copy with the same id, so a retry after a lost ack stores once.
    headers.append(name: "Nats-Msg-Id", value: store.messageID)
    do throws(NATSCommandError) {
      try link.connection.request(
        link.subjects.retained(store.topic), headers: headers, payload: store.value
      ) {
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
    guard let loop = link.loop, !link.connection.stopped,
      ContinuousClock.now + delay < store.deadline
    else {
      return fail(store, reason)
    }
    loop.schedule(in: delay) { [self] in attempt(store, lastError: reason) }
  }

  private func fail(_ store: PendingStore, _ reason: String) {
    link.state.withLock { $0.counters.retainedFailed += 1 }
    link.warnings.warn(
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
    let receivers = link.deliverLocally(line, topic: store.topic, sequence: sequence)
    var headers = NATSHeaders()
    headers.append(name: "Obs-Seq", value: String(sequence))
    let subjects = link.subjects
    link.state.withLock { state in
      state.counters.retainedStored += 1
      if (try? state.session.publish(
        subject: subjects.live(store.topic), headers: headers, payload: line)) != nil
      {
        state.counters.valuesOut += 1
      } else {
        state.counters.valuesDropped += 1
      }
    }
    link.connection.flush()
    store.completion(.success(receivers))
  }
}

/// A retained publish waiting for JetStream's acknowledgement.
package struct PendingStore {
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
