/// How much topic history the cluster's JetStream stream keeps: `--history`,
/// `--history-ttl` and `--max-history-bytes`, as its per-subject, age and byte limits.
public struct ClusterHistorySettings: Sendable, Equatable {
  /// Values kept per topic (`max_msgs_per_subject`): each value is one message.
  public var valuesPerTopic: Int
  /// How long a value is kept (`max_age`), or `nil` for as long as the other limits allow.
  public var timeToLive: Duration?
  /// Bytes the stream may hold (`max_bytes`, counted by JetStream with its own overhead per
  /// message); the oldest values go first.
  public var maxBytes: Int

  /// Settings from the history flags.
  public init(valuesPerTopic: Int, timeToLive: Duration?, maxBytes: Int) {
    self.valuesPerTopic = valuesPerTopic
    self.timeToLive = timeToLive
    self.maxBytes = maxBytes
  }
}
