import NATS
import ObservableStreams
import ObservableWire

/// Subscriptions with positions, and reads of the history, as the sessions ask for them.
extension ClusterHistory {
  /// The answer while JetStream cannot be asked.
  static let unavailable = ProtocolError(
    .unavailable, "the cluster's history is not available now (no NATS connection or JetStream)")

  /// Topics full to `--history` whose oldest value a resume reads at most; a pattern with
  /// more answers `recovered:false` without asking.
  static let fullTopicsChecked = 256

  /// Subscribes `observer` to `name` (a pattern when `isPattern`) with positions: the values
  /// after `since` first, when given, then every new one. `reply` gets whether the history
  /// reached back to `since` or, without it, the position of the stream's last value, which
  /// every value it delivers follows; or `unavailable`; before any value comes.
  /// Returns what ends the subscription. Any thread.
  func subscribe(
    _ name: String, isPattern: Bool, since: StreamPosition?, observer: StreamObserver,
    reply: @escaping @Sendable (Result<SubscriptionStart, ProtocolError>) -> Void
  ) -> @Sendable () -> Void {
    guard let loop = link.loop else {
      reply(.failure(Self.unavailable))
      return {}
    }
    let handle = FeedHandle()
    loop.execute { [self] in
      guard isAvailable, let epoch else { return reply(.failure(Self.unavailable)) }
      link.streamStatus(link.subjects.historyStream, subjectsFilter: link.subjects.live(name)) {
        [self] status in
        guard let status else { return reply(.failure(Self.unavailable)) }
        let start: (after: UInt64, recovered: Bool?)
        if let since {
          start = since.epoch == epoch ? (since.sequence, nil) : (0, false)
        } else {
          start = (status.lastSequence, nil)
        }
        let begin = { [self] (recovered: Bool?) in
          // Answered even when the subscription ended meanwhile: the reply holds a place.
          let after = since == nil ? StreamPosition(epoch: epoch, sequence: start.after) : nil
          reply(.success(SubscriptionStart(recovered: recovered, after: after)))
          guard !handle.ended else { return }
          let feed = PositionedFeed(
            name: name, isPattern: isPattern, observer: observer, epoch: epoch,
            after: start.after)
          handle.feed = feed
          feeds[ObjectIdentifier(feed)] = feed
          restart(feed)
        }
        if since == nil || start.recovered != nil {
          return begin(start.recovered)
        }
        reaches(back: start.after, status, then: begin)
      }
    }
    return { [self] in
      loop.execute { [self] in
        handle.ended = true
        guard let feed = handle.feed else { return }
        feed.ended = true
        feeds[ObjectIdentifier(feed)] = nil
        stopConsumer(of: feed)
      }
    }
  }

  /// Calls `completion` with whether the stream still holds every value after `after` of the
  /// topics `status` counts (those of the filter it was asked with).
  ///
  /// JetStream drops a subject's oldest values first, whether by `--history` or by age and
  /// bytes, and the latter two from the front of the stream. So nothing after `after` is
  /// gone when the position is not older than the stream's front and every topic full to
  /// `--history` still holds a value at or before `after + 1`; a topic with fewer lost
  /// values only at the front. When that cannot be shown the answer is `false`, though
  /// nothing may be missing.
  private func reaches(
    back after: UInt64, _ status: JetStreamStreamStatus, then completion: @escaping (Bool) -> Void
  ) {
    guard after + 1 >= status.firstSequence else { return completion(false) }
    let full = status.subjectCounts.filter { $0.value >= settings.valuesPerTopic }.map(\.key)
    guard !full.isEmpty else { return completion(true) }
    guard full.count <= Self.fullTopicsChecked else { return completion(false) }
    var waiting = full.count
    var reaches = true
    for subject in full {
      // From the leader: a replica behind it may still hold values the leader dropped, and
      // the resume would be called complete without them.
      let call = JetStreamAPI.nextMessageFromLeader(
        stream: link.subjects.historyStream, subject: subject,
        from: max(status.firstSequence, 1))
      let answered = { (oldest: UInt64?) in
        if let oldest, oldest > after + 1 { reaches = false }
        waiting -= 1
        if waiting == 0 { completion(reaches) }
      }
      do throws(NATSCommandError) {
        try link.connection.request(call.subject, payload: call.body, timeout: .seconds(2)) {
          result in
          do throws(JetStreamError) {
            answered(try JetStreamAPI.decodeMessageGet(result)?.sequence)
          } catch {
            answered(.max)
          }
        }
      } catch {
        answered(.max)
      }
    }
  }

  /// Reads the last `limit` values (all, without it) of `name`, a pattern's topics together
  /// when `isPattern`, oldest first, each a line with its position; `completion` gets them
  /// and how many, or `unavailable`. Any thread; `completion` runs on the link's loop.
  ///
  /// The stream's leader says first how many values match: the consumer that replays them
  /// may be on a replica that has not stored the newest yet, and the read waits for them.
  func read(
    _ name: String, isPattern: Bool, limit: Int?,
    completion: @escaping @Sendable (Result<(lines: [UInt8], count: Int), ProtocolError>) -> Void
  ) {
    guard let loop = link.loop else { return completion(.failure(Self.unavailable)) }
    loop.execute { [self] in
      guard isAvailable else { return completion(.failure(Self.unavailable)) }
      link.streamStatus(link.subjects.historyStream, subjectsFilter: link.subjects.live(name)) {
        [self] status in
        guard let status else { return completion(.failure(Self.unavailable)) }
        let stored = status.subjectCounts.values.reduce(0, +)
        replay(name, isPattern: isPattern, limit: limit, atLeast: stored, completion)
      }
    }
  }

  /// Replays the values of `name` the history holds, at least `atLeast` of them, and hands
  /// `completion` the last `limit`. Loop only.
  private func replay(
    _ name: String, isPattern: Bool, limit: Int?, atLeast: Int,
    _ completion: @escaping @Sendable (Result<(lines: [UInt8], count: Int), ProtocolError>) -> Void
  ) {
    guard isAvailable, let epoch else { return completion(.failure(Self.unavailable)) }
    link.replays.start(
      filter: link.subjects.live(name), headersOnly: false,
      stream: link.subjects.historyStream, startSequence: 1, storedAtLeast: atLeast
    ) { [self] stored in
      var lines: [UInt8] = []
      var count = 0
      for message in stored.suffix(limit ?? stored.count)
      where HistoryLines.append(
        message.payload, subject: message.subject, sequence: message.sequence, name: name,
        isPattern: isPattern, epoch: epoch, subjects: link.subjects, to: &lines)
      {
        count += 1
      }
      completion(.success((lines, count)))
    }
  }
}

/// A subscription's feed as its end sees it: set and read on the link's loop only.
private final class FeedHandle: @unchecked Sendable {
  var feed: PositionedFeed?
  var ended = false
}
