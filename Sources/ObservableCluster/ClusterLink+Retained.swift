import NATS
import ObservableWire

/// Retained values through JetStream, as the streams and sessions ask for them: each call
/// goes to the job that does it. Any thread.
extension ClusterLink {
  /// Stores `value` (raw, validated JSON) as `topic`'s retained value, then delivers it here
  /// and to the other nodes. `completion` gets the local receivers, or `unavailable` once
  /// JetStream could not store it within the store timeout.
  package func storeRetained(
    _ value: [UInt8], topic: String,
    completion: @escaping @Sendable (Result<Int, ProtocolError>) -> Void
  ) {
    store.store(value, topic: topic, completion: completion)
  }

  /// Reads the retained value(s) of the gate's name from JetStream and opens the gate with
  /// them; without a connection or a stream, opens it at once with none.
  func fetchRetained(for gate: RetainedGate) {
    reader.fetch(for: gate)
  }

  /// The topics with a retained value in JetStream that `filter` names or matches (all when
  /// `nil`), for `list`; `nil` when JetStream cannot be asked. `completion` runs on the
  /// link's loop.
  package func retainedTopics(
    matching filter: String?, completion: @escaping @Sendable ([String]?) -> Void
  ) {
    reader.topics(matching: filter, completion: completion)
  }

  /// Removes `topic`'s retained value from JetStream; `completion` gets whether there was one,
  /// or `unavailable`.
  package func clearRetained(
    _ topic: String, completion: @escaping @Sendable (Result<Bool, ProtocolError>) -> Void
  ) {
    reader.clear(topic, completion: completion)
  }
}
