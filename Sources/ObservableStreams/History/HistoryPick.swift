import ObservableWire

/// A value picked from the history for a resume or a `history` reply: its sequence, its plain
/// line and its topic.
struct HistoryPick {
  let sequence: UInt64
  let line: [UInt8]
  let topic: String

  /// The lines of `picks`, in the order given, each with its position, as the subscription or
  /// request to `name` receives them: relabelled with `"sub"` when `name` is a pattern.
  static func encode(
    _ picks: [HistoryPick], name: String, isPattern: Bool, epoch: UInt32
  ) -> [UInt8] {
    var out: [UInt8] = []
    var prefixes: [String: [UInt8]] = [:]
    for pick in picks {
      let position = StreamPosition(epoch: epoch, sequence: pick.sequence)
      guard isPattern else {
        pick.line.withUnsafeBytes { DeliveryEncoder.append(line: $0, position: position, to: &out) }
        continue
      }
      let prefix = prefixes[pick.topic] ?? DeliveryEncoder.prefix(stream: pick.topic, sub: name)
      prefixes[pick.topic] = prefix
      let relabelled = DeliveryEncoder.relabel(
        pick.line, droppingPrefix: DeliveryEncoder.prefixLength(stream: pick.topic),
        adding: prefix)
      relabelled.withUnsafeBytes { DeliveryEncoder.append(line: $0, position: position, to: &out) }
    }
    return out
  }

  /// The values of `topics` after `sequence`, in sequence order.
  static func after(_ sequence: UInt64, in topics: [TopicHistory]) -> [HistoryPick] {
    var picks: [HistoryPick] = []
    for topic in topics {
      topic.forEachValue(after: sequence) { sequence, line in
        picks.append(HistoryPick(sequence: sequence, line: Array(line), topic: topic.name))
      }
    }
    if topics.count > 1 { picks.sort { $0.sequence < $1.sequence } }
    return picks
  }

  /// The last `limit` values of `topics` together (all of them when `limit` is `nil`), oldest
  /// first.
  static func last(_ limit: Int?, in topics: [TopicHistory]) -> [HistoryPick] {
    var picks: [HistoryPick] = []
    for topic in topics {
      topic.forEachValue(last: limit) { sequence, line in
        picks.append(HistoryPick(sequence: sequence, line: Array(line), topic: topic.name))
      }
    }
    if topics.count > 1 { picks.sort { $0.sequence < $1.sequence } }
    guard let limit, picks.count > limit else { return picks }
    return Array(picks.suffix(limit))
  }
}
