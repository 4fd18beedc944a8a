import NATS
import ObservableWire

/// The delivery lines of values read from the cluster's history stream: each message is one
/// value (a node with history sends one per message), delivered with the position
/// `EPOCH-SEQUENCE` of its stream sequence, and labelled with the pattern it came through.
enum HistoryLines {
  /// Appends the line of `payload`, stored on `subject` at `sequence`, as a subscriber of
  /// `name` (a pattern when `isPattern`) gets it; returns `false` and appends nothing for a
  /// message that is not one valid delivery line of its subject's topic.
  static func append(
    _ payload: ArraySlice<UInt8>, subject: String, sequence: UInt64, name: String,
    isPattern: Bool, epoch: UInt32, subjects: ClusterSubjects, to out: inout [UInt8]
  ) -> Bool {
    guard let topic = subjects.topic(ofLive: subject),
      ClusterLines.validate(payload, topic: topic) == 1
    else { return false }
    var line = Array(payload)
    if isPattern {
      line = DeliveryEncoder.relabel(
        line, droppingPrefix: DeliveryEncoder.prefixLength(stream: topic),
        adding: DeliveryEncoder.prefix(stream: topic, sub: name))
    }
    line.withUnsafeBytes { bytes in
      DeliveryEncoder.append(
        line: bytes, position: StreamPosition(epoch: epoch, sequence: sequence), to: &out)
    }
    return true
  }

  /// The epoch of positions in a stream made at `created` (the server's RFC 3339 time, with
  /// nanoseconds): FNV-1a of the text, so every node derives the same one, and a stream
  /// deleted and made again gives another.
  static func epoch(created: String) -> UInt32 {
    var hash: UInt32 = 0x811C_9DC5
    for byte in created.utf8 {
      hash = (hash ^ UInt32(byte)) &* 0x0100_0193
    }
    return hash
  }
}
