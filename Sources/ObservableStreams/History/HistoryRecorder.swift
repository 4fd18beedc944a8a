/// Where the history's values go besides memory: the server's store (`--data-dir`), which
/// keeps them across a restart.
///
/// Called under the history's lock, in sequence order, so a recorder sees values and
/// evictions in the order they happened; it must only hand them on (queue them), never wait.
package protocol HistoryRecorder: AnyObject, Sendable {
  /// Topic `topic` kept `lines` (one plain delivery line each, published now) at
  /// `sequences`, one for one.
  func recorded(_ lines: [[UInt8]], sequences: [UInt64], topic: String)

  /// The values at `sequences` left the history (a bound evicted them).
  func evicted(_ sequences: [UInt64])
}

/// A history value read back from the store, to be kept again at its own position.
package struct RestoredHistoryValue: Sendable {
  /// The topic's concrete name.
  package var topic: String
  /// The position's sequence.
  package var sequence: UInt64
  /// The plain delivery line.
  package var line: [UInt8]
  /// How long ago it was published, for `--history-ttl`.
  package var age: Duration

  package init(topic: String, sequence: UInt64, line: [UInt8], age: Duration) {
    self.topic = topic
    self.sequence = sequence
    self.line = line
    self.age = age
  }
}
