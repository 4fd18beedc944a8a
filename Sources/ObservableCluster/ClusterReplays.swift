import NATS

/// Reads of the last stored value of every subject a filter matches, through ephemeral
/// `last_per_subject` consumers (2.9.10 has no multi-subject get): each replay subscribes to
/// a deliver subject of its own, makes the consumer, and ends when every value has come, on
/// an error, or after 3 s. Loop only.
package final class ClusterReplays: @unchecked Sendable {
  // Unchecked: every member but `link` is touched on the link's loop only; the methods
  // that other threads call hop to the loop first.

  /// The replays of `link`, which owns them.
  init(link: ClusterLink) {
    self.link = link
  }

  /// The link whose connection the replays' subscriptions and requests go through.
  unowned let link: ClusterLink
  /// The replays running, by the sid of their deliver subject.
  private var running: [UInt64: ClusterReplay] = [:]
  /// The number of the last replay, which makes its deliver subject unique.
  private var started = 0

  /// Starts a replay of the last stored message of every subject `filter` matches, in the
  /// retained stream (every message from `startSequence` on, in `stream`, when given); they
  /// go to `completion` once all have come, or what came after an error or 3 s.
  /// `headersOnly` leaves their payloads out, for a caller that needs the subjects only;
  /// `storedAtLeast` is how many the stream's leader said it holds (see
  /// ``JetStreamLastValuesReplay``).
  func start(
    filter: String, headersOnly: Bool, stream: String? = nil, startSequence: UInt64? = nil,
    storedAtLeast: Int = 0, then completion: @escaping ([JetStreamStoredMessage]) -> Void
  ) {
    guard let loop = link.loop else { return completion([]) }
    started += 1
    let deliverSubject = link.state.withLock { $0.session.inboxPrefix } + "-r.\(started)"
    let replay = ClusterReplay(
      replay: JetStreamLastValuesReplay(
        stream: stream ?? link.subjects.stream, filter: filter, deliverSubject: deliverSubject,
        headersOnly: headersOnly, startSequence: startSequence, storedAtLeast: storedAtLeast),
      completion: completion)
    // The deliver subject is subscribed before the consumer exists: its first values may
    // come before the reply that creates it.
    guard let sid = link.state.withLock({ try? $0.session.subscribe(subject: deliverSubject) })
    else {
      return completion([])
    }
    replay.sid = sid
    running[sid] = replay
    replay.timer = loop.schedule(in: .seconds(3)) { [self] in finish(replay) }
    let call = replay.replay.createRequest
    do throws(NATSCommandError) {
      try link.connection.request(call.subject, payload: call.body, timeout: .seconds(2)) {
        [self] result in
        do throws(JetStreamError) {
          try replay.replay.consumerCreated(result)
          if replay.isFinished { finish(replay) }
        } catch {
          link.logger.warning(
            "retained values not read", metadata: ["filter": "\(filter)", "error": "\(error)"])
          finish(replay)
        }
      }
    } catch {
      finish(replay)
    }
  }

  /// Takes `message` if it came on a replay's deliver subject; returns whether it did.
  func deliver(_ message: NATSMessage) -> Bool {
    guard let replay = running[message.sid] else { return false }
    replay.delivered(message)
    if replay.isFinished { finish(replay) }
    return true
  }

  /// Ends a replay: its subscription and consumer go, and what came goes to its completion.
  private func finish(_ replay: ClusterReplay) {
    guard running.removeValue(forKey: replay.sid) != nil else { return }
    if let timer = replay.timer { link.loop?.cancel(timer) }
    link.state.withLock { $0.session.unsubscribe(sid: replay.sid) }
    if let delete = replay.replay.deleteRequest {
      // The server also removes it once its deliver subject has no interest; this is sooner.
      _ = try? link.connection.request(delete.subject, payload: delete.body) { _ in }
    }
    link.connection.flush()
    replay.completion(replay.replay.values)
  }
}
