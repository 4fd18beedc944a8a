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

/// Which run of which store the positions belong to, and the highest position written so far.
///
/// The id is the epoch of every position (`EPOCH-SEQUENCE`, the id in 8 hexadecimal digits).
/// It is made when the store is created and kept while each run continues the one before: it
/// changes when the last run did not close the store cleanly (a SIGKILL, a crash, a write
/// that failed or found the queue full), since values delivered with positions may then be
/// missing from the store, and a client resuming from one of them must be told
/// (`recovered:false`) rather than resumed past a gap.
package struct StoreEpoch: Sendable, Equatable {
  /// Random, never 0; the same across clean restarts.
  package var id: UInt32
  /// The highest history sequence the store has committed; 0 before the first.
  package var lastSequence: UInt64
  /// Whether this run continues the last one's positions (it closed cleanly), or `id` is new.
  package var continued: Bool

  /// The epoch `id`, whose highest committed sequence is `lastSequence`.
  package init(id: UInt32, lastSequence: UInt64, continued: Bool = true) {
    self.id = id
    self.lastSequence = lastSequence
    self.continued = continued
  }
}

/// Everything a store holds, loaded at open for the server to fill its topics before it
/// listens.
package struct StoreContents: Sendable {
  /// Every retained value, in name order.
  package var retained: [RetainedValue]
  /// Every history entry, in sequence order.
  package var history: [HistoryEntry]
  /// The store's epoch.
  package var epoch: StoreEpoch
}
