import NATS
import ObservableStreams
import ObservableWire

/// Gap notices: a subscription with positions whose consumer fell so far behind that JetStream
/// dropped values it had not delivered yet (a topic's `--history` limit) is told so, before
/// the first value after the gap, rather than skipping them without a word.
///
/// JetStream says nothing when it drops a value a consumer has not reached: the consumer
/// sequence goes on without a hole and the stream sequences of other topics fill the holes
/// in between. But a topic drops its oldest value only when it holds `--history` newer ones,
/// all still ahead of the consumer, so the first delivery after a loss has at least
/// `--history - 1` values of its filter pending behind it (the `pending` of its reply
/// subject), whichever consumer brings it (a new one starts after the last value received).
/// Only such a delivery is checked: it and the values after it are held back while
/// JetStream is asked which topics of the filter hold `--history` values and start after the
/// last value sent; each gets a notice, then the held values go out. The check errs on the side of caution by one value: a topic
/// exactly `--history` values ahead also gets a notice, though it lost nothing yet.
extension ClusterHistory {
  /// Topics full to `--history` whose oldest value a check reads at most; a filter with more
  /// gets one notice for the whole subscription.
  static let fullTopicsCheckedForGaps = 256

  /// Hands `line`, the value stored at `sequence`, to `feed`'s observer, or holds it back
  /// while a check runs or when it is `suspect` (it may follow a loss).
  func take(_ line: [UInt8], sequence: UInt64, suspect: Bool, of feed: PositionedFeed) {
    if feed.isChecking || suspect {
      feed.held.append((line, sequence, suspect))
    } else {
      send(line, sequence: sequence, to: feed)
    }
    if !feed.isChecking, suspect { check(feed) }
  }

  private func send(_ line: [UInt8], sequence: UInt64, to feed: PositionedFeed) {
    feed.lastSent = sequence
    feed.observer.next(line)
  }

  /// Asks which topics lost values after the last value sent; once answered, sends a notice
  /// for each, then every value held when it asked, then checks again from the first
  /// suspect value that came meanwhile, if any.
  private func check(_ feed: PositionedFeed) {
    feed.isChecking = true
    let covered = feed.held.count
    lostTopics(of: feed, after: feed.lastSent) { [self] notices in
      guard !feed.ended else { return }
      for notice in notices { feed.observer.next(notice) }
      let values = feed.held
      feed.held = []
      feed.isChecking = false
      for (index, value) in values.enumerated() {
        if index >= covered, value.suspect {
          // A value read after the question went out: a loss before it is not yet ruled out.
          feed.held = Array(values[index...])
          return check(feed)
        }
        send(value.line, sequence: value.sequence, to: feed)
      }
    }
  }

  /// The gap notices for `feed` after `after`: one for each topic of its filter that holds
  /// `--history` values, all newer than `after + 1`, its position the topic's oldest value
  /// (everything of the topic before it and after `after` may be gone); one for the whole
  /// subscription when that cannot be read.
  private func lostTopics(
    of feed: PositionedFeed, after: UInt64, completion: @escaping ([[UInt8]]) -> Void
  ) {
    let whole = { (bound: UInt64?) in
      completion([Self.notice(topic: nil, feed, at: bound)])
    }
    let call = JetStreamAPI.streamInfo(
      name: link.subjects.historyStream, subjectsFilter: link.subjects.live(feed.name))
    do throws(NATSCommandError) {
      try link.connection.request(call.subject, payload: call.body, timeout: .seconds(2)) {
        [self] result in
        guard let status = try? JetStreamAPI.decodeStreamStatus(result) else { return whole(nil) }
        let full = status.subjectCounts.filter { $0.value >= settings.valuesPerTopic }.map(\.key)
        guard full.count <= Self.fullTopicsCheckedForGaps else {
          return whole(status.lastSequence + 1)
        }
        oldest(of: full, from: max(status.firstSequence, 1)) { [self] oldest in
          guard let oldest else { return whole(status.lastSequence + 1) }
          completion(
            oldest.filter { $0.value > after + 1 }.sorted { $0.key < $1.key }.compactMap {
              subject, sequence in
              link.subjects.topic(ofLive: subject).map {
                Self.notice(topic: $0, feed, at: sequence)
              }
            })
        }
      }
    } catch {
      whole(nil)
    }
  }

  /// The stream sequence of the oldest value held of each of `subjects`, or `nil` when one
  /// could not be read.
  private func oldest(
    of subjects: [String], from first: UInt64, completion: @escaping ([String: UInt64]?) -> Void
  ) {
    guard !subjects.isEmpty else { return completion([:]) }
    var waiting = subjects.count
    var found: [String: UInt64]? = [:]
    for subject in subjects {
      let answered = { (sequence: UInt64?) in
        if let sequence { found?[subject] = sequence } else { found = nil }
        waiting -= 1
        if waiting == 0 { completion(found) }
      }
      // From the leader: a replica behind it may still hold a value the leader dropped, and
      // the notice would then place the gap before that value instead of after it.
      let call = JetStreamAPI.nextMessageFromLeader(
        stream: link.subjects.historyStream, subject: subject, from: first)
      do throws(NATSCommandError) {
        try link.connection.request(call.subject, payload: call.body, timeout: .seconds(2)) {
          result in
          answered(try? JetStreamAPI.decodeMessageGet(result)?.sequence)
        }
      } catch {
        answered(nil)
      }
    }
  }

  /// `{"stream":TOPIC,"sub":PATTERN,"recovered":false,"pos":POS}`: values of `topic` (of the
  /// whole subscription when `nil`) after the last one sent and before `bound` may be gone.
  static func notice(topic: String?, _ feed: PositionedFeed, at bound: UInt64?) -> [UInt8] {
    var line = Array(#"{"stream":""#.utf8)
    line += (topic ?? feed.name).utf8
    if feed.isPattern, topic != nil {
      line += #"","sub":""#.utf8
      line += feed.name.utf8
    }
    line += #"","recovered":false"#.utf8
    if let bound {
      line += #","pos":""#.utf8
      StreamPosition(epoch: feed.epoch, sequence: bound).append(to: &line)
      line += #"""#.utf8
    }
    line += "}\n".utf8
    return line
  }
}
