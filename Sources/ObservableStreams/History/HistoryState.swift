/// What the history's lock guards (``StreamHistory``).
struct HistoryState {
  var log: HistoryLog
  /// The epoch of the positions written.
  var epoch: UInt32
  /// Where values and evictions go besides memory, with `--data-dir`.
  var recorder: (any HistoryRecorder)?
  var subscribers = PositionedSubscribers()
  /// The sequence of each topic's retained value, for the position it is delivered with.
  var retainedSequences: [String: UInt64] = [:]
}
