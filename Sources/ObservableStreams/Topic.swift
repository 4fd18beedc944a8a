import Locking
import ObservableWire

/// The state of one topic: its observers and its retained value.
///
/// A topic is made on first use and dropped by the ``StreamRegistry`` once it has neither direct
/// subscribers nor a retained value. Fan-out happens under the topic's own lock, so every
/// subscriber, direct or through a pattern, sees one topic's values in the same order.
package final class Topic: Sendable {
  /// The topic's concrete name.
  package let name: String

  /// An empty topic named `name`, an already validated concrete name, whose retained value
  /// counts against `budget`.
  package init(name: String, budget: RetainedBudget) {
    self.name = name
    self.budget = budget
    plainPrefixLength = DeliveryEncoder.prefixLength(stream: name)
    retainedOverhead = RetainedBudget.overhead(name: name)
  }

  /// Hands `lines` (one or more whole lines) to every observer and returns how many there were
  /// and whether the topic is now unused; `nil` when the topic was dropped meanwhile and the
  /// caller must look it up again. `retain` keeps `lines`, a single line then, for later
  /// subscribers.
  ///
  /// Observers through a pattern get the lines with the pattern as `"sub"`, encoded once per
  /// pattern.
  ///
  /// A value to retain that would pass the retained-bytes limit is neither kept nor delivered:
  /// the outcome then has `refused` set and the topic keeps its previous value.
  package func publish(_ lines: [UInt8], retain: Bool) -> (
    receivers: Int, unused: Bool, refused: Bool
  )? {
    state.withLock { state in
      guard !state.dropped else { return nil }
      if retain {
        let held = state.retained.map { $0.count + retainedOverhead } ?? 0
        guard budget.replace(held, with: lines.count + retainedOverhead) else {
          return (0, state.isUnused, true)
        }
        state.retained = lines
      }
      state.direct.deliver(lines)
      if !state.patterns.isEmpty {
        for group in state.patterns.values {
          group.observers.deliver(
            DeliveryEncoder.relabel(
              lines, droppingPrefix: plainPrefixLength, adding: group.linePrefix))
        }
      }
      return (state.direct.count + state.patternCount, state.isUnused, false)
    }
  }

  /// Hands `lines` to the direct subscribers only, as values from another node through the
  /// NATS subscription to this topic's name; returns how many there were.
  package func deliverDirect(_ lines: [UInt8]) -> Int {
    state.withLock { state in
      guard !state.dropped else { return 0 }
      state.direct.deliver(lines)
      return state.direct.count
    }
  }

  /// Forgets the retained value, giving its bytes back; returns whether there was one, or
  /// `nil` when the topic was dropped meanwhile.
  package func clearRetained() -> Bool? {
    state.withLock { state in
      guard !state.dropped else { return nil }
      guard let retained = state.retained else { return false }
      _ = budget.replace(retained.count + retainedOverhead, with: 0)
      state.retained = nil
      return true
    }
  }

  /// Adds a direct observer and hands it the retained value first, if there is one.
  package func attach(_ observer: StreamObserver, key: UInt64) {
    state.withLock { state in
      state.direct.insert(observer, key: key)
      if let retained = state.retained { observer.next(retained) }
    }
  }

  /// Adds an observer through `pattern` and hands it the retained value first, if there is one.
  package func attach(_ observer: StreamObserver, key: UInt64, pattern: String) {
    state.withLock { state in
      let prefix = DeliveryEncoder.prefix(stream: name, sub: pattern)
      state.patterns[pattern, default: TopicPatternGroup(linePrefix: prefix)].observers.insert(
        observer, key: key)
      state.patternCount += 1
      if let retained = state.retained {
        observer.next(
          DeliveryEncoder.relabel(retained, droppingPrefix: plainPrefixLength, adding: prefix))
      }
    }
  }

  /// Adds every subscription to a pattern at once, as a new topic, which has no retained value
  /// yet, is made.
  package func adopt(_ subscribers: PatternSubscribers) {
    state.withLock { state in
      guard !subscribers.observers.isEmpty else { return }
      state.patterns[subscribers.pattern] = TopicPatternGroup(
        linePrefix: DeliveryEncoder.prefix(stream: name, sub: subscribers.pattern),
        observers: subscribers.observers)
      state.patternCount += subscribers.observers.count
    }
  }

  /// Removes a direct observer.
  package func detach(key: UInt64) {
    state.withLock { state in _ = state.direct.remove(key: key) }
  }

  /// Removes an observer through `pattern`.
  package func detach(key: UInt64, pattern: String) {
    state.withLock { state in
      guard state.patterns[pattern]?.observers.remove(key: key) == true else { return }
      state.patternCount -= 1
      if state.patterns[pattern]?.observers.isEmpty == true { state.patterns[pattern] = nil }
    }
  }

  /// Marks the topic dropped when nothing keeps it; returns whether it did.
  func dropIfUnused() -> Bool {
    state.withLock { state in
      guard state.isUnused else { return false }
      state.dropped = true
      return true
    }
  }

  /// The retained value's line, if there is one.
  package var retainedLine: [UInt8]? { state.withLock { $0.retained } }

  /// Direct subscribers, not counting pattern subscriptions that match.
  var subscriberCount: Int { state.withLock { $0.direct.count } }

  /// The length of `{"stream":NAME,"value":`, which every plain line of this topic starts with.
  private let plainPrefixLength: Int
  /// What the budget charges for keeping a value here besides the value's line.
  private let retainedOverhead: Int
  private let budget: RetainedBudget
  private let state = Locked(TopicState())
}

private struct TopicState {
  var direct = ObserverSet()
  /// Observers through patterns, by pattern.
  var patterns: [String: TopicPatternGroup] = [:]
  /// The observers in `patterns`, all together.
  var patternCount = 0
  var retained: [UInt8]?
  var dropped = false

  var isUnused: Bool { direct.isEmpty && retained == nil }
}

/// The observers of one topic through one pattern, with the start of their lines.
private struct TopicPatternGroup {
  /// `{"stream":NAME,"sub":PATTERN,"value":`
  let linePrefix: [UInt8]
  var observers = ObserverSet()
}
