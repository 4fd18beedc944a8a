/// A topic's retained value as the store keeps it: the bytes the server retains today, the
/// value's whole delivery line (`{"stream":NAME,"value":V}\n`).
package struct RetainedValue: Sendable, Equatable {
  /// The topic's concrete name.
  package var stream: String
  /// The retained bytes, opaque to the store.
  package var value: [UInt8]

  /// A retained `value` of `stream`.
  package init(stream: String, value: [UInt8]) {
    self.stream = stream
    self.value = value
  }
}

/// One value of a topic's history (the history issue): its position, its bytes and when it
/// was published.
package struct HistoryEntry: Sendable, Equatable {
  /// The topic's concrete name.
  package var topic: String
  /// The value's position, which grows with every value; unique within the topic.
  package var sequence: UInt64
  /// The value's bytes, opaque to the store.
  package var value: [UInt8]
  /// When it was published, in milliseconds since the Unix epoch.
  package var timestamp: Int64

  /// An entry of `topic` at position `sequence`.
  package init(topic: String, sequence: UInt64, value: [UInt8], timestamp: Int64) {
    self.topic = topic
    self.sequence = sequence
    self.value = value
    self.timestamp = timestamp
  }
}

/// Which store the positions belong to: a random id made once, when the store was created, so
/// that a client resuming from a position can tell a different (or recreated) store from the
/// one it saw, and the highest position written so far.
package struct StoreEpoch: Sendable, Equatable {
  /// Random, made when the store file was created; never changes afterwards.
  package var id: UInt64
  /// The highest history sequence the store has committed; 0 before the first.
  package var lastSequence: UInt64

  /// The epoch `id`, whose highest committed sequence is `lastSequence`.
  package init(id: UInt64, lastSequence: UInt64) {
    self.id = id
    self.lastSequence = lastSequence
  }
}

/// Everything a store holds, loaded at open for the server to fill its topics before it
/// listens.
package struct StoreContents: Sendable {
  /// Every retained value, in no particular order.
  package var retained: [RetainedValue]
  /// Every history entry, by topic and then by sequence.
  package var history: [HistoryEntry]
  /// The store's epoch.
  package var epoch: StoreEpoch
}
