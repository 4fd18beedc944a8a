import ObservableWire

/// The ``StreamRegistry``'s lock-protected part: the topics, by name and in a trie of names, and
/// the pattern subscriptions, in a trie of patterns.
///
/// The invariant every method keeps: each topic holds the observers of every pattern that
/// matches its name. The tries keep that cheap to maintain: a new topic finds its patterns by
/// following its own name's tokens, and a new pattern finds its topics by following its own
/// tokens, so neither looks at all patterns or all topics.
package struct TopicTable {
  /// The topics by name, for publishing.
  package private(set) var topics: [String: Topic] = [:]
  /// The same topics in a trie, for finding those a pattern matches.
  private var names = TokenTrie<Topic>()
  /// The same topics in name order, for `list`'s pages.
  private var order = OrderedNames<Topic>()
  /// The pattern subscriptions, grouped by pattern.
  private var patterns = PatternIndex()

  /// What retained values may take, shared by the topics.
  package let budget: RetainedBudget

  package init(budget: RetainedBudget) {
    self.budget = budget
  }

  /// The topic `name`, made (with every matching pattern's observers) if it does not exist.
  package mutating func topic(_ name: String) -> Topic {
    if let topic = topics[name] { return topic }
    let topic = Topic(name: name, budget: budget)
    patterns.forEachMatch(of: name) { topic.adopt($0) }
    topics[name] = topic
    names.update(name) { $0 = topic }
    order.insert(name, topic)
    return topic
  }

  /// Forgets `topic` if it is still the one under its name and nothing keeps it.
  mutating func dropIfUnused(_ topic: Topic) {
    guard topics[topic.name] === topic, topic.dropIfUnused() else { return }
    topics[topic.name] = nil
    names.update(topic.name) { $0 = nil }
    order.remove(topic.name)
  }

  /// Adds a subscription to `pattern` and attaches it to every topic the pattern matches, each
  /// handing it its retained value first.
  package mutating func attach(_ observer: StreamObserver, key: UInt64, pattern: String) {
    patterns.update(pattern) { subscribers in
      var group = subscribers ?? PatternSubscribers(pattern: pattern)
      group.observers.insert(observer, key: key)
      subscribers = group
    }
    names.forEachName(matchedBy: pattern) { $0.attach(observer, key: key, pattern: pattern) }
  }

  /// Removes a subscription to `pattern` from the index and from every topic it matches, which
  /// are all the topics it was attached to: those that existed when it came were attached
  /// then, those made since adopted it, and dropped ones are gone.
  package mutating func detach(key: UInt64, pattern: String) {
    patterns.update(pattern) { subscribers in
      subscribers?.observers.remove(key: key)
      if subscribers?.observers.isEmpty == true { subscribers = nil }
    }
    names.forEachName(matchedBy: pattern) { $0.detach(key: key, pattern: pattern) }
  }

  /// Hands `lines`, the plain lines of the topic `name`, which does not exist, to the pattern
  /// subscriptions that match it, encoded once per pattern; returns how many observers they
  /// reached.
  mutating func deliverToPatterns(_ lines: [UInt8], name: String) -> Int {
    guard !patterns.isEmpty else { return 0 }
    var receivers = 0
    let prefixLength = DeliveryEncoder.prefixLength(stream: name)
    patterns.forEachMatch(of: name) { group in
      group.observers.deliver(
        DeliveryEncoder.relabel(
          lines, droppingPrefix: prefixLength,
          adding: DeliveryEncoder.prefix(stream: name, sub: group.pattern)))
      receivers += group.observers.count
    }
    return receivers
  }

  /// Hands `lines`, plain lines of the topic `name` from another node, to the subscribers of
  /// `pattern` only; returns how many there were.
  package mutating func deliverToPattern(_ lines: [UInt8], name: String, pattern: String) -> Int {
    patterns.update(pattern) { group in
      guard let group else { return 0 }
      group.observers.deliver(
        DeliveryEncoder.relabel(
          lines, droppingPrefix: DeliveryEncoder.prefixLength(stream: name),
          adding: DeliveryEncoder.prefix(stream: name, sub: pattern)))
      return group.observers.count
    }
  }

  /// The topics `pattern` matches.
  package func topics(matching pattern: String) -> [Topic] {
    var found: [Topic] = []
    names.forEachName(matchedBy: pattern) { found.append($0) }
    return found
  }

  /// Calls `body` with the topics in name order from the first after `lowerBound` (from it,
  /// when `inclusive`; from the first topic when it is `nil`) until `body` returns `false`.
  func forEachTopic(
    from lowerBound: String?, inclusive: Bool, _ body: (Topic) -> Bool
  ) {
    order.forEach(from: lowerBound, inclusive: inclusive) { _, topic in body(topic) }
  }

  /// How many distinct patterns have subscriptions.
  var patternCount: Int { patterns.count }
}
