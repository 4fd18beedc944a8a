import Locking

/// The state of one topic: its observers and its retained value.
///
/// A topic is made on first use and dropped by the ``StreamRegistry`` once it has neither direct
/// subscribers nor a retained value. Fan-out happens under the topic's own lock, so every
/// subscriber sees one topic's values in the same order.
final class Topic: Sendable {
  /// The topic's concrete name.
  let name: String

  init(name: String) {
    self.name = name
  }

  /// Hands `lines` (one or more whole lines) to every observer and returns how many there were
  /// and whether the topic is now unused; `nil` when the topic was dropped meanwhile and the
  /// caller must look it up again. `retain` keeps `lines`, a single line then, for later
  /// subscribers.
  func publish(_ lines: [UInt8], retain: Bool) -> (receivers: Int, unused: Bool)? {
    state.withLock { state in
      guard !state.dropped else { return nil }
      if retain { state.retained = lines }
      state.observers.deliver(lines)
      return (state.observers.count, state.directCount == 0 && state.retained == nil)
    }
  }

  /// Adds an observer and hands it the retained value first, if there is one.
  func attach(_ observer: StreamObserver, key: UInt64, direct: Bool) {
    state.withLock { state in
      state.observers.insert(observer, key: key)
      if direct { state.directCount += 1 }
      if let retained = state.retained { observer.next(retained) }
    }
  }

  /// Removes an observer.
  func detach(key: UInt64, direct: Bool) {
    state.withLock { state in
      if state.observers.remove(key: key), direct { state.directCount -= 1 }
    }
  }

  /// Marks the topic dropped when nothing keeps it; returns whether it did.
  func dropIfUnused() -> Bool {
    state.withLock { state in
      guard state.directCount == 0, state.retained == nil else { return false }
      state.dropped = true
      return true
    }
  }

  /// Direct subscribers, not counting pattern subscriptions that match.
  var subscriberCount: Int { state.withLock { $0.directCount } }

  private let state = Locked(TopicState())
}

private struct TopicState {
  var observers = ObserverSet()
  var directCount = 0
  var retained: [UInt8]?
  var dropped = false
}
