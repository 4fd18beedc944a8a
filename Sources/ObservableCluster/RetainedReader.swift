import NATS
import ObservableWire

/// Reading retained values back from JetStream: for a new subscriber (one topic's from the
/// stream's leader, a pattern's too, see `readPattern(for:)`), the retained topics for
/// `list`, and clearing one. Loop only, but for the methods that say "any thread".
package final class RetainedReader: @unchecked Sendable {
  // Unchecked: every member but `link` is touched on the link's loop only; the methods
  // that other threads call hop to the loop first.

  /// The reader of `link`, which owns it.
  init(link: ClusterLink) {
    self.link = link
  }

  /// The link whose connection, stream and replays the reads go through.
  unowned let link: ClusterLink

  /// Whether JetStream can be asked now: connected, with the stream made, not stopping.
  private var canRead: Bool {
    !link.connection.stopped && link.stream.isReady && link.isConnected
  }

  /// Reads the retained value(s) of the gate's name from JetStream and opens the gate with
  /// them; without a connection or a stream, opens it at once with none. Any thread.
  func fetch(for gate: RetainedGate) {
    guard let loop = link.loop else { return gate.open(with: []) }
    loop.execute { [self] in
      guard canRead else { return gate.open(with: []) }
      if gate.isPattern {
        readPattern(for: gate)
      } else {
        readLast(for: gate, deadline: .now + .seconds(3))
      }
    }
  }

  /// Reads the topic's retained value from the stream's leader, not through a direct get:
  /// a replica that lags would answer the value before one JetStream already acknowledged.
  private func readLast(for gate: RetainedGate, deadline: ContinuousClock.Instant) {
    let call = JetStreamAPI.lastMessageFromLeader(
      stream: link.subjects.stream, subject: link.subjects.retained(gate.name))
    do throws(NATSCommandError) {
      try link.connection.request(call.subject, payload: call.body, timeout: .seconds(1)) {
        [self] result in
        do throws(JetStreamError) {
          let stored = try JetStreamAPI.decodeMessageGet(result)
          gate.open(with: stored.flatMap(value).map { [$0] } ?? [])
        } catch {
          guard error.isTemporary, ContinuousClock.now + .milliseconds(200) < deadline,
            let loop = link.loop
          else {
            link.logger.warning(
              "retained value not read", metadata: ["stream": "\(gate.name)", "error": "\(error)"])
            return gate.open(with: [])
          }
          loop.schedule(in: .milliseconds(200)) { [self] in readLast(for: gate, deadline: deadline)
          }
        }
      }
    } catch {
      gate.open(with: [])
    }
  }

  /// A stored message as a value for subscribers, if it is valid JSON of a topic.
  func value(_ stored: JetStreamStoredMessage) -> ClusterRetainedValue? {
    guard let topic = link.subjects.topic(ofRetained: stored.subject) else { return nil }
    let value = Array(stored.payload)
    let valid = value.withUnsafeBytes { bytes in
      (try? JSONScanner.scanValue(bytes)).map { $0.range == 0..<bytes.count } ?? false
    }
    return valid ? ClusterRetainedValue(topic: topic, sequence: stored.sequence, value: value) : nil
  }

  /// The topics with a retained value in JetStream that `filter` (a name or a pattern) names
  /// or matches, all of them when it is `nil`, for `list`; `nil` when JetStream cannot be
  /// asked (no connection, no stream yet). Any thread; `completion` runs on the link's loop.
  ///
  /// A headers-only replay brings one small message per retained topic, whatever the size of
  /// the values, so a list costs one consumer and a message per matching retained topic.
  func topics(
    matching filter: String?, completion: @escaping @Sendable ([String]?) -> Void
  ) {
    guard let loop = link.loop else { return completion(nil) }
    loop.execute { [self] in
      guard canRead else { return completion(nil) }
      let subjects = link.subjects
      link.replays.start(filter: subjects.retained(filter ?? ">"), headersOnly: true) { stored in
        completion(stored.compactMap { subjects.topic(ofRetained: $0.subject) })
      }
    }
  }

  /// Removes `topic`'s retained value from JetStream; `completion` gets whether there was one,
  /// or `unavailable`. Any thread.
  func clear(
    _ topic: String, completion: @escaping @Sendable (Result<Bool, ProtocolError>) -> Void
  ) {
    guard let loop = link.loop else {
      return completion(.failure(ProtocolError(.unavailable, "the cluster link is not running")))
    }
    loop.execute { [self] in
      let call = JetStreamAPI.purge(
        stream: link.subjects.stream, subject: link.subjects.retained(topic))
      do throws(NATSCommandError) {
        try link.connection.request(call.subject, payload: call.body, timeout: .seconds(3)) {
          result in
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
