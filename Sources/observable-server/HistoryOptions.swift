import ArgumentParser
import ObservableServer

/// The flags of topic history: how many values per topic, for how long, in how many bytes.
struct HistoryOptions: ParsableArguments {
  @Option(
    name: .customLong("history"),
    help: ArgumentHelp(
      "Values kept per topic for resuming subscribers (since) and the history op; 0 keeps none.",
      valueName: "n"))
  var valuesPerTopic = 0

  @Option(
    name: .customLong("history-ttl"),
    help: ArgumentHelp(
      "Seconds a value stays in history; 0 keeps it as long as the other bounds allow.",
      valueName: "seconds"))
  var timeToLive: Double = 0

  @Option(
    name: .customLong("max-history-bytes"),
    help: ArgumentHelp(
      "Bytes all topics' history may take together; the server's oldest values go first.",
      valueName: "bytes"))
  var maxBytes = 64 << 20

  /// Checks the flags and sets them in `configuration`, which already has its cluster.
  func apply(to configuration: inout ServerConfiguration) throws {
    guard valuesPerTopic >= 0 else { throw ValidationError("--history must not be negative") }
    guard timeToLive >= 0 else {
      throw ValidationError("--history-ttl must be 0 (no limit) or a number of seconds")
    }
    guard maxBytes >= 0 else { throw ValidationError("--max-history-bytes must not be negative") }
    guard valuesPerTopic > 0 else { return }
    configuration.historyPerTopic = valuesPerTopic
    configuration.historyTimeToLive =
      timeToLive == 0 ? nil : .milliseconds(Int((timeToLive * 1000).rounded()))
    configuration.maxHistoryBytes = maxBytes
  }
}
