import ObservableWire

/// Reading one topic's retained value without subscribing (`get`, `GET /streams/NAME`).
extension StreamRegistry {
  /// The delivery line `name`'s topic retains, nil when it retains none or does not exist.
  /// A fixed stream (built-in or exec) retains nothing; no topic is made for the look-up.
  package func retainedLine(of name: String) throws(ProtocolError) -> [UInt8]? {
    try StreamName.validate(name)
    guard sources[name] == nil else { return nil }
    let topic = topics.withLock { $0.topics[name] }
    return topic?.retainedLine
  }
}
