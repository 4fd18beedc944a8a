import ObservableCluster
import ObservableCounters
import ObservableStreams

extension ObservableServer {
  /// The topics' history the configuration asks for, or `nil` with `--history 0`.
  ///
  /// Clustered, JetStream keeps the history instead (``clusterConfiguration(_:)``), so that
  /// a client can resume on another node.
  static func history(_ configuration: ServerConfiguration, _ counters: ServerCounters)
    -> StreamHistory?
  {
    guard configuration.historyPerTopic > 0, configuration.cluster == nil else { return nil }
    var history = HistoryConfiguration(
      valuesPerTopic: configuration.historyPerTopic,
      timeToLive: configuration.historyTimeToLive, maxBytes: configuration.maxHistoryBytes)
    if let epoch = configuration.historyEpoch { history.epoch = epoch }
    return StreamHistory(configuration: history, counters: counters)
  }

  /// The cluster's configuration with the history the configuration asks for, which
  /// JetStream keeps; `nil` without `--cluster`.
  static func clusterConfiguration(_ configuration: ServerConfiguration) -> ClusterConfiguration? {
    guard var cluster = configuration.cluster else { return nil }
    if configuration.historyPerTopic > 0 {
      cluster.history = ClusterHistorySettings(
        valuesPerTopic: configuration.historyPerTopic,
        timeToLive: configuration.historyTimeToLive, maxBytes: configuration.maxHistoryBytes)
    }
    return cluster
  }
}
