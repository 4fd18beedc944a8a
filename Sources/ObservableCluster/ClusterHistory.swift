import NATS
import ObservablePOSIX
import ObservableStreams
import ObservableWire

/// Topic history through JetStream (`--cluster` with `--history`): a stream that keeps the
/// live values of every topic, `--history` per subject, so that a position any node wrote
/// can be resumed on any other. Loop only, but for the methods that say "any thread".
///
/// A position is `EPOCH-SEQUENCE`: the stream sequence JetStream gave the value, under an
/// epoch derived from the stream's creation time. Every subscription with positions is a
/// ``PositionedFeed``, a consumer of the stream from a sequence on; a heartbeat a second
/// shows that it is alive, and one silent for ``silenceLimit`` is replaced.
package final class ClusterHistory: @unchecked Sendable {
  // Unchecked: every member but `link` and `settings` is touched on the link's loop only;
  // the methods that other threads call hop to the loop first.

  /// The history of `link`, which owns it, with the limits of `settings`.
  init(link: ClusterLink, settings: ClusterHistorySettings) {
    self.link = link
    self.settings = settings
    let subjects = link.subjects
    stream = ClusterStream(
      link: link, purpose: "history",
      configuration: { replicas in
        var config = JetStreamStreamConfig(
          name: subjects.historyStream, subjects: [subjects.live + ".>"],
          maxMessagesPerSubject: settings.valuesPerTopic, replicas: replicas, allowDirect: true)
        config.maxAge = settings.timeToLive.map(JetStreamAPI.nanoseconds)
        config.maxBytes = Int64(settings.maxBytes)
        return config
      },
      ready: { [unowned self] in readEpoch() })
  }

  unowned let link: ClusterLink
  let settings: ClusterHistorySettings
  /// The stream; made at each connection.
  private(set) var stream: ClusterStream!
  /// The epoch of the stream's positions, once read after the stream is ready.
  private(set) var epoch: UInt32?
  /// The subscriptions with positions, until they end.
  var feeds: [ObjectIdentifier: PositionedFeed] = [:]
  /// The feeds with a consumer, by the sid of its deliver subject.
  private var consumers: [UInt64: PositionedFeed] = [:]
  /// The number of the last deliver subject, which makes each unique.
  private var started = 0
  /// The timer that replaces silent consumers, while there are feeds.
  private var watchdog: LoopTimer?

  /// How long a consumer may send nothing, not even its heartbeat, before it is replaced.
  static let silenceLimit: Duration = .seconds(3)

  /// Whether JetStream can be asked now: connected, with the stream made and its epoch read.
  var isAvailable: Bool {
    !link.connection.stopped && stream.isReady && epoch != nil && link.isConnected
  }

  /// Makes the stream for a new connection, then reads its epoch and restarts every feed.
  func connected() {
    stream.ensure()
  }

  private func readEpoch() {
    let call = JetStreamAPI.streamInfo(name: link.subjects.historyStream)
    do throws(NATSCommandError) {
      try link.connection.request(call.subject, payload: call.body, timeout: .seconds(5)) {
        [self] result in
        guard let status = try? JetStreamAPI.decodeStreamStatus(result),
          let created = status.created
        else {
          link.logger.warning("cluster history stream not read; retrying")
          link.loop?.schedule(in: .seconds(1)) { [self] in
            if link.isConnected, !link.connection.stopped { readEpoch() }
          }
          return
        }
        let read = HistoryLines.epoch(created: created)
        if let epoch, epoch != read {
          // Its values are gone: the feeds go on from its end, under the new epoch.
          link.logger.warning(
            "cluster history stream was made again: positions start a new epoch",
            metadata: ["created": "\(created)"])
          for feed in feeds.values {
            feed.epoch = read
            feed.lastSequence = status.lastSequence
          }
        }
        if epoch == nil {
          // Positions can be given from here on: what a subscribe with them waits for.
          link.logger.info("cluster history positions ready", metadata: ["epoch": "\(read)"])
        }
        epoch = read
        for feed in Array(feeds.values) { restart(feed) }
      }
    } catch {
      // Not connected: the next connection reads it.
    }
  }

  /// Takes `message` if it came on a feed's deliver subject; returns whether it did.
  func deliver(_ message: NATSMessage) -> Bool {
    guard let feed = consumers[message.sid] else { return false }
    switch feed.classify(message) {
    case .alive, .duplicate:
      break
    case .gap:
      restart(feed)
    case .value(let sequence, let pending):
      var line: [UInt8] = []
      guard
        HistoryLines.append(
          message.payload, subject: message.subject, sequence: sequence, name: feed.name,
          isPattern: feed.isPattern, epoch: feed.epoch, subjects: link.subjects, to: &line)
      else { break }
      // A value JetStream dropped before the consumer reached it leaves no trace in the
      // delivery after it, but that delivery then has at least `--history - 1` more held
      // behind it (see ``take(_:sequence:suspect:of:)``): only then is it checked.
      take(
        line, sequence: sequence, suspect: pending + 1 >= UInt64(settings.valuesPerTopic),
        of: feed)
    }
    return true
  }

  /// Starts `feed`'s consumer after its last sequence, through a new deliver subject; the old
  /// one's subscription and consumer go.
  func restart(_ feed: PositionedFeed) {
    stopConsumer(of: feed)
    // Tried again by the watchdog once the silence limit passes.
    feed.lastHeard = .now
    guard !feed.ended, isAvailable else { return startWatchdog() }
    started += 1
    let deliverSubject = link.state.withLock { $0.session.inboxPrefix } + "-h.\(started)"
    guard let sid = link.state.withLock({ try? $0.session.subscribe(subject: deliverSubject) })
    else { return }
    feed.sid = sid
    feed.nextConsumerSequence = 1
    feed.lastHeard = .now
    consumers[sid] = feed
    let call = JetStreamAPI.createSequenceConsumer(
      stream: link.subjects.historyStream, filter: link.subjects.live(feed.name),
      deliverSubject: deliverSubject, startSequence: feed.lastSequence + 1)
    do throws(NATSCommandError) {
      try link.connection.request(call.subject, payload: call.body, timeout: .seconds(2)) {
        [self] result in
        guard feed.sid == sid else { return }
        do throws(JetStreamError) {
          feed.consumerName = try JetStreamAPI.decodeConsumerInfo(result).name
          // A feed that ended meanwhile leaves the consumer it just got.
          if feed.ended { stopConsumer(of: feed) }
        } catch {
          // The watchdog tries again once the feed has been silent long enough.
          link.logger.warning(
            "cluster history consumer not made",
            metadata: ["stream": "\(feed.name)", "error": "\(error)"])
        }
      }
    } catch {
      // Not connected: the next connection restarts it.
    }
    startWatchdog()
  }

  /// Removes `feed`'s deliver subject and consumer, if it has them.
  func stopConsumer(of feed: PositionedFeed) {
    guard feed.sid != 0 else { return }
    consumers[feed.sid] = nil
    let sid = feed.sid
    feed.sid = 0
    link.state.withLock { $0.session.unsubscribe(sid: sid) }
    if let name = feed.consumerName {
      // The server also removes it once its deliver subject has no interest; this is sooner.
      let delete = JetStreamAPI.deleteConsumer(stream: link.subjects.historyStream, name: name)
      _ = try? link.connection.request(delete.subject, payload: delete.body) { _ in }
    }
    feed.consumerName = nil
    link.connection.flush()
  }

  /// Checks every second for feeds whose consumer went silent, while there are feeds.
  private func startWatchdog() {
    guard watchdog == nil else { return }
    watchdog = link.loop?.schedule(in: .seconds(1)) { [self] in
      watchdog = nil
      let now = ContinuousClock.now
      for feed in Array(feeds.values) where now - feed.lastHeard > Self.silenceLimit {
        restart(feed)
      }
      if !feeds.isEmpty { startWatchdog() }
    }
  }
}
