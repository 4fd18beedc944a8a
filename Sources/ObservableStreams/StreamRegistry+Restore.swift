import ObservableWire

extension StreamRegistry {
  /// Makes `line`, a whole delivery line read back from the store, topic `name`'s retained
  /// value, as the server does at start before anything listens: nobody is subscribed, so
  /// nothing is delivered and nothing is counted as published.
  ///
  /// - Throws: `badRequest` for a name that is no topic's, `limitExceeded` when the value
  ///   would pass the retained-bytes limit; the server then refuses to start half-loaded.
  package func restoreRetained(_ line: [UInt8], to name: String) throws(ProtocolError) {
    try checkTopic(name)
    while true {
      let topic = topics.withLock { $0.topic(name) }
      // nil: the topic was dropped after the lookup; look again.
      guard let outcome = topic.publish(line, retain: true) else { continue }
      guard !outcome.refused else {
        throw ProtocolError(
          .limitExceeded,
          "the retained values pass \(topics.withLock { $0.budget.limit }) bytes (--max-retained-bytes)"
        )
      }
      return
    }
  }
}
