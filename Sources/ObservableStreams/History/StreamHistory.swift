import Locking
import ObservableCounters
import ObservableWire

/// The topics' history (`--history N`), the server-wide sequence, and the subscriptions whose
/// deliveries carry positions.
///
/// One lock covers a whole publish while history is on: the sequence is taken, the value is
/// kept and every subscriber (plain ones through the topic, positioned ones here) gets it
/// before the next publish, on any loop, takes a sequence. So every subscriber, a pattern's
/// across topics included, sees values in sequence order, and a resume, which reads the
/// history and attaches under the same lock, can miss nothing and repeat nothing. The lock
/// comes before the registry's and the topics' (history, registry, topic, outbox).
package final class StreamHistory: Sendable {
  package init(configuration: HistoryConfiguration, counters: ServerCounters) {
    self.configuration = configuration
    self.counters = counters
    state = Locked(
      HistoryState(log: HistoryLog(configuration: configuration), epoch: configuration.epoch))
    // Read when `stats` asks rather than counted per publish; weak, since the counters outlive
    // no server but must not keep this history either.
    counters.readHistoryCounts { [weak self] in
      self?.state.withLock { state in
        ServerCounters.HistoryCounts(
          values: state.log.values, bytes: state.log.bytes, evictedTotal: state.log.evictedTotal)
      } ?? ServerCounters.HistoryCounts(values: 0, bytes: 0, evictedTotal: 0)
    }
  }

  package let configuration: HistoryConfiguration
  let counters: ServerCounters
  let state: Locked<HistoryState>
  /// Where the expiry timer runs, while it should.
  let expiryScheduler = Locked<(any StreamScheduler)?>(nil)
  /// The pending expiry; touched on the scheduler's thread only.
  nonisolated(unsafe) var expiryTimer: (any StreamTimer)?

  /// The epoch of this run's positions: the configuration's, or the store's once restored.
  package var epoch: UInt32 { state.withLock { $0.epoch } }

  /// Fills the history from the store before anything listens, and hands every value and
  /// eviction from now on to `recorder` as well.
  ///
  /// `values` come in sequence order; those past the bounds are evicted again (and the store
  /// told). Positions take `epoch`; the next sequence follows `lastSequence`. `retained` gives
  /// the topics' retained lines: each gets the position of its value in the history, or, when
  /// the history lost it, the store's last sequence, after which every new value comes.
  package func restore(
    _ values: [RestoredHistoryValue], epoch: UInt32, lastSequence: UInt64,
    retained: [(topic: String, line: [UInt8])], recorder: any HistoryRecorder
  ) {
    let now = HistoryClock.now(for: configuration.timeToLive)
    state.withLock { state in
      state.epoch = epoch
      state.recorder = recorder
      state.log.evictedSequences = []
      for value in values where value.sequence > state.log.sequence {
        let time = configuration.timeToLive == nil ? 0 : now - HistoryClock.nanoseconds(value.age)
        state.log.restore(value.line, name: value.topic, sequence: value.sequence, at: time)
      }
      state.log.continueAfter(max(lastSequence, 1))
      for (topic, line) in retained {
        var sequence = state.log.sequence
        line.withUnsafeBytes { retainedLine in
          state.log.topic(topic)?.forEachValue(after: 0) { kept, keptLine in
            if keptLine.elementsEqual(retainedLine) { sequence = kept }
          }
        }
        state.retainedSequences[topic] = sequence
      }
      report(&state, delivered: 0)
    }
  }

  /// Runs `deliver`, the plain fan-out of `lines` (`count` lines of topic `name`), keeps the
  /// values unless it refused them, and hands them with positions to the positioned
  /// subscriptions; returns the receivers of both.
  func publish(
    _ lines: [UInt8], count: Int, to name: String, retain: Bool,
    deliver: () -> (receivers: Int, refused: Bool)
  ) -> (receivers: Int, refused: Bool) {
    let now = HistoryClock.now(for: configuration.timeToLive)
    return state.withLock { state in
      var outcome = deliver()
      guard !outcome.refused else { return outcome }
      state.log.evictExpired(now: now)
      // The lines are kept as the array the subscribers were handed, not copied; sequences
      // are consecutive, so the first and the count say them all, and positions are written
      // only for subscribers that asked.
      let first = state.log.record(lines, count: count, name: name, at: now)
      if retain { state.retainedSequences[name] = first + UInt64(count) - 1 }
      if let recorder = state.recorder {
        recorder.recorded(
          DeliveryLines.split(lines), sequences: Array(first..<first + UInt64(count)), topic: name)
      }
      guard !state.subscribers.isEmpty else {
        report(&state, delivered: 0)
        return outcome
      }
      let positioned = state.subscribers.deliver(
        lines, first: first, count: count, name: name, epoch: state.epoch)
      outcome.receivers += positioned
      report(&state, delivered: positioned * count)
      return outcome
    }
  }

  /// Runs `clear`, which forgets topic `name`'s retained value, under the history's lock.
  func clearing(
    _ name: String, _ clear: () throws(ProtocolError) -> Bool
  ) throws(ProtocolError) -> Bool {
    let outcome: Result<Bool, ProtocolError> = state.withLock { state in
      do throws(ProtocolError) {
        let cleared = try clear()
        state.retainedSequences[name] = nil
        return .success(cleared)
      } catch {
        return .failure(error)
      }
    }
    return try outcome.get()
  }

  /// Attaches `observer` to `name` (a pattern when `isPattern`) with positions: first the
  /// values after `since` (or, without it, the retained values), then every live value.
  ///
  /// `reply` runs first, under the lock, with whether the history reached back to `since`
  /// (`nil` without it) or, without `since`, the newest position, which every later value
  /// follows; so the subscribe's reply comes before the values it announces.
  /// `retained` gives the retained lines of the topics `name` names. Returns what detaches it.
  func subscribe(
    _ name: String, isPattern: Bool, since: StreamPosition?, observer: StreamObserver,
    retained: () -> [(topic: String, line: [UInt8])], reply: (SubscriptionStart) -> Void
  ) -> @Sendable () -> Void {
    let key = SubscriptionKey.next()
    let now = HistoryClock.now(for: configuration.timeToLive)
    state.withLock { state in
      state.log.evictExpired(now: now)
      var picks: [HistoryPick] = []
      var recovered: Bool?
      var retainedAfter: UInt64?
      if let since {
        let sameEpoch = since.epoch == state.epoch
        let after = sameEpoch ? since.sequence : 0
        recovered = sameEpoch && state.log.reaches(back: after, name, isPattern: isPattern)
        picks = HistoryPick.after(after, in: state.log.topics(named: name, isPattern: isPattern))
        // A resume that missed values also gets what is retained and no longer in history.
        if recovered == false { retainedAfter = after }
      } else {
        retainedAfter = 0
      }
      if let after = retainedAfter {
        let extra = retained().compactMap { topic, line -> HistoryPick? in
          guard let sequence = state.retainedSequences[topic], sequence > after,
            since == nil || state.log.topic(topic)?.holds(sequence) != true
          else { return nil }
          return HistoryPick(sequence: sequence, line: line, topic: topic)
        }
        if !extra.isEmpty { picks = (extra + picks).sorted { $0.sequence < $1.sequence } }
      }
      let after =
        since == nil ? StreamPosition(epoch: state.epoch, sequence: state.log.sequence) : nil
      reply(SubscriptionStart(recovered: recovered, after: after))
      if !picks.isEmpty {
        observer.next(
          HistoryPick.encode(picks, name: name, isPattern: isPattern, epoch: state.epoch))
      }
      state.subscribers.insert(observer, key: key, name: name, isPattern: isPattern)
      report(&state, delivered: picks.count)
    }
    counters.update {
      $0.subscribesTotal += 1
      $0.subscriptions += 1
    }
    return { [self] in
      state.withLock { $0.subscribers.remove(key: key, name: name, isPattern: isPattern) }
      counters.update {
        $0.disconnectsTotal += 1
        $0.subscriptions -= 1
      }
    }
  }

  /// The last `limit` values of `name` (a pattern's topics together, when `isPattern`), oldest
  /// first, each a line with its position, and how many there are.
  package func read(_ name: String, isPattern: Bool, limit: Int?) -> (lines: [UInt8], count: Int) {
    let now = HistoryClock.now(for: configuration.timeToLive)
    let (picks, epoch) = state.withLock { state in
      state.log.evictExpired(now: now)
      report(&state, delivered: 0)
      return (
        HistoryPick.last(limit, in: state.log.topics(named: name, isPattern: isPattern)),
        state.epoch
      )
    }
    return (HistoryPick.encode(picks, name: name, isPattern: isPattern, epoch: epoch), picks.count)
  }

  /// Hands the evictions to the recorder and counts `delivered` deliveries with positions;
  /// called under the lock, so they go out in order. The history's own counts are read when
  /// `stats` asks (see ``init(configuration:counters:)``), not updated per publish.
  func report(_ state: inout HistoryState, delivered: Int) {
    if let recorder = state.recorder, state.log.evictedSequences?.isEmpty == false {
      recorder.evicted(state.log.evictedSequences ?? [])
      state.log.evictedSequences = []
    }
    if delivered > 0 { counters.update { $0.deliveredTotal += delivered } }
  }
}
