/// How much topic history the server keeps (`--history`, `--history-ttl`,
/// `--max-history-bytes`) and under which epoch its positions are written.
package struct HistoryConfiguration: Sendable {
  /// Values kept per topic; the oldest goes when a topic has more.
  package var valuesPerTopic: Int
  /// How long a value is kept, or `nil` for as long as the other bounds allow.
  package var timeToLive: Duration?
  /// Bytes all topics' history may take together; the oldest values of the server go first.
  package var maxBytes: Int
  /// The epoch of every position this run writes. Random by default, so positions from an
  /// earlier run are never taken for this one's; a store that keeps history across restarts
  /// passes the epoch it keeps.
  package var epoch: UInt32

  package init(
    valuesPerTopic: Int, timeToLive: Duration? = nil, maxBytes: Int = 64 << 20,
    epoch: UInt32 = UInt32.random(in: 0...UInt32.max)
  ) {
    self.valuesPerTopic = valuesPerTopic
    self.timeToLive = timeToLive
    self.maxBytes = maxBytes
    self.epoch = epoch
  }
}
