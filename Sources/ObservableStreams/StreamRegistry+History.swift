import IndefiniteObservable
import ObservableWire

/// Subscriptions with positions and reads of the history (`--history N`).
extension StreamRegistry {
  /// Subscribes `observer` to `name`, a name or a pattern, with a position on every delivery;
  /// with `since`, a position the server gave, the values after it come first.
  ///
  /// `reply` runs before any value is delivered, with where the subscription starts.
  package func subscribeWithPositions(
    _ name: String, since: String?, observer: StreamObserver, reply: (SubscriptionStart) -> Void
  ) throws(ProtocolError) -> Subscription {
    let history = try history(for: name)
    let isPattern = try StreamName.validatePattern(name)
    let position = try since.map { since throws(ProtocolError) in try StreamPosition.since(since) }
    let detach = history.subscribe(
      name, isPattern: isPattern, since: position, observer: observer,
      retained: { retainedLines(name, isPattern: isPattern) }, reply: reply)
    return Subscription(detach)
  }

  /// The last `limit` values of `name` (a name or a pattern) with their positions, oldest
  /// first, and how many there are.
  package func readHistory(_ name: String, limit: Int?) throws(ProtocolError) -> (
    lines: [UInt8], count: Int
  ) {
    let history = try history(for: name)
    let isPattern = try StreamName.validatePattern(name)
    return history.read(name, isPattern: isPattern, limit: limit)
  }

  /// The history, when the server keeps one and `name` is not a fixed stream.
  private func history(for name: String) throws(ProtocolError) -> StreamHistory {
    guard let history else {
      throw ProtocolError(.unsupported, "the server keeps no history; start it with --history N")
    }
    if let source = sources[name] {
      throw ProtocolError(
        .badRequest, "\(name) is a \(source.kind.rawValue) stream, which has no history")
    }
    return history
  }

  /// The retained lines of the topics `name` names, with their topics.
  private func retainedLines(_ name: String, isPattern: Bool) -> [(topic: String, line: [UInt8])] {
    let named = topics.withLock { table in
      isPattern ? table.topics(matching: name) : table.topics[name].map { [$0] } ?? []
    }
    return named.compactMap { topic in topic.retainedLine.map { (topic.name, $0) } }
  }
}
