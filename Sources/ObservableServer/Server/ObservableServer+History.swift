import ObservableCounters
import ObservableStreams

extension ObservableServer {
  /// The topics' history the configuration asks for, or `nil` with `--history 0`.
  ///
  /// Clustered, history is not kept yet (positions would have to come from JetStream, so
  /// that a client can resume on another node); the command line refuses the combination.
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
}
