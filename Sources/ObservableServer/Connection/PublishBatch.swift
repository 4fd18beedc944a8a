/// Publishes without an `id` to the topic a connection published to last, collected while one
/// read is handled and delivered together when it ends.
///
/// A publisher streaming to one topic sends hundreds of publishes per read. Delivering them as
/// one chunk takes the topic's lock, every subscriber's outbox lock and the counters' lock once
/// per read instead of once per value. Subscribers still see one topic's values in one order:
/// the chunk goes out under the topic's lock like a single value, and the publisher's replies
/// follow it, as they follow a single delivery.
struct PublishBatch {
  /// Bytes past which the batch goes out before the read ends, so that a compressed read, which
  /// may inflate to megabytes, stays bounded.
  static let limit = 64 * 1024

  /// The topic every line is for; `nil` while the batch is empty.
  private(set) var stream: String?
  /// The encoded delivery lines, `{"stream":NAME,"value":V}\n` each.
  private(set) var lines: [UInt8] = []
  /// How many lines there are.
  private(set) var count = 0

  var isFull: Bool { lines.count >= Self.limit }

  /// Adds a delivery of raw, validated JSON `value` to `name`, which must be the batch's topic.
  mutating func append(_ value: UnsafeRawBufferPointer, to name: String) {
    assert(stream == nil || stream == name, "a batch holds one topic")
    stream = name
    DeliveryEncoder.append(stream: name, rawValue: value, to: &lines)
    count += 1
  }

  /// Empties the batch, keeping its storage for the next read.
  mutating func removeAll() {
    stream = nil
    lines.removeAll(keepingCapacity: true)
    count = 0
  }
}
