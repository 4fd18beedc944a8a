import IndefiniteObservable
import Locking
import ObservableCounters
import ObservableWire

/// All streams by name: the fixed ones (built-in and exec) and the topics clients make.
///
/// Topic structure changes (subscribe, unsubscribe, creating and dropping topics, pattern
/// subscriptions) happen under the registry's lock; fan-out happens under each topic's lock.
/// The lock order is registry, then topic, then a connection's outbox. Patterns and topics are
/// kept in token tries (``TopicTable``), so no publish, subscribe or new topic looks at every
/// pattern or every topic.
package final class StreamRegistry: Sendable {
  package init(
    sources: [any StreamSource], counters: ServerCounters, maxRetainedBytes: Int = 64 << 20,
    replication: (any StreamReplication)? = nil, history: StreamHistory? = nil
  ) {
    self.replication = replication
    self.history = history
    topics = Locked(TopicTable(budget: RetainedBudget(limit: maxRetainedBytes, counters: counters)))
    self.sources = Dictionary(
      sources.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    self.counters = counters
  }

  /// The stream to subscribe to for `name`, which may be a pattern.
  package func stream(named name: String) throws(ProtocolError) -> NamedStream {
    let isPattern = try StreamName.validatePattern(name)
    if let source = sources[name] { return NamedStream(source: source, counters: counters) }
    if let replication { return replication.stream(named: name, isPattern: isPattern, in: self) }
    return NamedStream(name: name, counters: counters) { [self] observer in
      let key = SubscriptionKey.next()
      if isPattern {
        attachPattern(name, observer, key: key)
        return { self.detachPattern(name, key: key) }
      }
      attachDirect(name, observer, key: key)
      return { self.detachDirect(name, key: key) }
    }
  }

  /// Delivers raw JSON `value` to every subscriber of topic `name`; returns how many there were.
  package func publish(
    _ value: UnsafeRawBufferPointer,
    to name: String,
    retain: Bool
  ) throws(ProtocolError) -> Int {
    var lastTopic: Topic?
    return try publish(value, to: name, retain: retain, lastTopic: &lastTopic)
  }

  /// Publishes like ``publish(_:to:retain:)``, going straight to `lastTopic` when it is the
  /// topic named and still in use, and leaving there the topic published to.
  ///
  /// A publisher mostly publishes to the same topic again; remembering it skips the name
  /// checks, the registry's lock and the name's hashing. A dropped topic refuses the publish,
  /// so a stale one is noticed and looked up afresh.
  package func publish(
    _ value: UnsafeRawBufferPointer,
    to name: String,
    retain: Bool,
    lastTopic: inout Topic?
  ) throws(ProtocolError) -> Int {
    if lastTopic?.name != name { try checkWritable(name) }
    return try publish(
      line: DeliveryEncoder.line(stream: name, rawValue: value), to: name, retain: retain,
      lastTopic: &lastTopic)
  }

  /// Publishes `line`, the delivery line ``DeliveryEncoder/line(stream:rawValue:)`` made of a
  /// value of topic `name`, as ``publish(_:to:retain:)`` publishes the value: for a caller
  /// that keeps the line too (the store writes it as the retained value), so that it is
  /// encoded once.
  package func publish(line: [UInt8], to name: String, retain: Bool) throws(ProtocolError)
    -> Int
  {
    try checkWritable(name)
    var lastTopic: Topic?
    return try publish(line: line, to: name, retain: retain, lastTopic: &lastTopic)
  }

  /// Refuses a name that is not a topic's, or that of a read-only stream.
  private func checkWritable(_ name: String) throws(ProtocolError) {
    try StreamName.validate(name)
    if let source = sources[name] {
      throw ProtocolError(.readOnly, "\(name) is a read-only \(source.kind.rawValue) stream")
    }
  }

  /// Delivers `line` to topic `name`, a name ``checkWritable(_:)`` accepted.
  private func publish(
    line: [UInt8], to name: String, retain: Bool, lastTopic: inout Topic?
  ) throws(ProtocolError) -> Int {
    let outcome = deliverOutcome(line, count: 1, to: name, retain: retain, lastTopic: &lastTopic)
    guard !outcome.refused else {
      throw ProtocolError(
        .limitExceeded,
        "retained values would pass \(topics.withLock { $0.budget.limit }) bytes; nothing changed")
    }
    return outcome.receivers
  }

  /// Forgets the retained value of topic `name`; returns whether it had one.
  package func clearRetained(_ name: String) throws(ProtocolError) -> Bool {
    guard let history else { return try clearRetainedValue(name) }
    return try history.clearing(name) { () throws(ProtocolError) in try clearRetainedValue(name) }
  }

  private func clearRetainedValue(_ name: String) throws(ProtocolError) -> Bool {
    try checkWritable(name)
    while true {
      guard let topic = topics.withLock({ $0.topics[name] }) else { return false }
      // nil: the topic was dropped after the lookup; look again.
      guard let cleared = topic.clearRetained() else { continue }
      dropIfUnused(topic)
      return cleared
    }
  }

  /// Delivers `count` encoded lines to the topic `name`, a name ``publish(_:to:retain:lastTopic:)``
  /// has accepted, as one chunk; returns how many observers received it.
  ///
  /// `retain` keeps `lines` as the topic's retained value, so it must then be a single line.
  package func deliver(
    _ lines: [UInt8],
    count: Int,
    to name: String,
    retain: Bool,
    lastTopic: inout Topic?
  ) -> Int {
    let outcome = deliverOutcome(
      lines, count: count, to: name, retain: retain, lastTopic: &lastTopic)
    assert(!outcome.refused, "only a value to retain can be refused, and publish retains")
    return outcome.receivers
  }

  private func deliverOutcome(
    _ lines: [UInt8],
    count: Int,
    to name: String,
    retain: Bool,
    lastTopic: inout Topic?
  ) -> (receivers: Int, refused: Bool) {
    // With history on, the publish runs under its lock, which gives it its positions.
    if let history {
      return history.publish(lines, count: count, to: name, retain: retain) {
        deliverLocally(lines, count: count, to: name, retain: retain, lastTopic: &lastTopic)
      }
    }
    let outcome = deliverLocally(
      lines, count: count, to: name, retain: retain, lastTopic: &lastTopic)
    // The one cost of clustering on this path when it is off: a test of an optional.
    if let replication, !outcome.refused {
      replication.forward(lines, count: count, topic: name)
    }
    return outcome
  }

  /// Delivers to this node's subscribers only.
  package func deliverLocally(
    _ lines: [UInt8],
    count: Int,
    to name: String,
    retain: Bool,
    lastTopic: inout Topic?
  ) -> (receivers: Int, refused: Bool) {
    assert(!retain || count == 1, "only a single line can be retained")
    if let topic = lastTopic, topic.name == name,
      let outcome = topic.publish(lines, retain: retain)
    {
      if outcome.refused { return (0, true) }
      counters.published(count, receivers: outcome.receivers)
      if outcome.unused {
        dropIfUnused(topic)
        lastTopic = nil
      }
      return (outcome.receivers, false)
    }
    lastTopic = nil
    while true {
      let target = topics.withLock { state -> PublishTarget in
        if let topic = state.topics[name] { return .topic(topic) }
        if retain { return .topic(state.topic(name)) }
        // Nobody subscribes to the name itself: only patterns can receive it, and the registry
        // lock keeps a subscriber from creating the topic meanwhile.
        return .delivered(state.deliverToPatterns(lines, name: name))
      }
      switch target {
      case .delivered(let receivers):
        counters.published(count, receivers: receivers)
        return (receivers, false)
      case .topic(let topic):
        // nil: the topic was dropped after the lookup; look again.
        guard let outcome = topic.publish(lines, retain: retain) else { continue }
        if outcome.unused { dropIfUnused(topic) } else { lastTopic = topic }
        if outcome.refused { return (0, true) }
        counters.published(count, receivers: outcome.receivers)
        return (outcome.receivers, false)
      }
    }
  }

  /// Starts the fixed streams' background work on `scheduler`.
  package func start(on scheduler: any StreamScheduler) {
    for source in sources.values { source.start(on: scheduler) }
    history?.start(on: scheduler)
  }

  /// How many distinct patterns have subscriptions; the pattern index holds no more.
  var patternCount: Int { topics.withLock { $0.patternCount } }

  /// Ends the fixed streams' background work.
  package func shutdown() {
    for source in sources.values { source.shutdown() }
    history?.shutdown()
  }

  // MARK: Topic structure

  package func attachDirect(_ name: String, _ observer: StreamObserver, key: UInt64) {
    topics.withLock { state in state.topic(name).attach(observer, key: key) }
  }

  package func detachDirect(_ name: String, key: UInt64) {
    topics.withLock { state in
      guard let topic = state.topics[name] else { return }
      topic.detach(key: key)
      state.dropIfUnused(topic)
    }
  }

  package func attachPattern(_ pattern: String, _ observer: StreamObserver, key: UInt64) {
    topics.withLock { state in state.attach(observer, key: key, pattern: pattern) }
  }

  package func detachPattern(_ pattern: String, key: UInt64) {
    topics.withLock { state in state.detach(key: key, pattern: pattern) }
  }

  private func dropIfUnused(_ topic: Topic) {
    topics.withLock { state in state.dropIfUnused(topic) }
  }

  package let sources: [String: any StreamSource]
  package let counters: ServerCounters
  package let topics: Locked<TopicTable>
  /// What copies values to other nodes, with `--cluster`.
  package let replication: (any StreamReplication)?
  /// The topics' history, with `--history N`.
  package let history: StreamHistory?
}

private enum PublishTarget {
  case topic(Topic)
  case delivered(Int)
}
