import ObservableStreams
import ObservableWire

/// Publishes without an `id` to the topic a connection published to last, collected while one
/// read is handled and delivered together when it ends.
///
/// A publisher streaming to one topic sends hundreds of publishes per read. Delivering them as
/// one chunk takes the topic's lock, every subscriber's outbox lock and the counters' lock once
/// per read instead of once per value. Subscribers still see one topic's values in one order:
/// the chunk goes out under the topic's lock like a single value, and the publisher's replies
/// follow it, as they follow a single delivery.
package struct PublishBatch {
  /// Bytes past which the batch goes out before the read ends, so that a compressed read, which
  /// may inflate to megabytes, stays bounded.
  static let limit = 64 * 1024

  /// The topic every line is for; that of the last batch, or `nil`, while the batch is empty.
  private(set) var stream: String?
  /// The UTF-8 bytes of `stream`, to recognise the next publish to it without making a `String`.
  private var streamBytes: [UInt8] = []
  /// The start every line of `stream` shares, kept for the next batch to the same topic.
  private var linePrefix: [UInt8] = []
  /// The encoded delivery lines, `{"stream":NAME,"value":V}\n` each.
  private(set) var lines: [UInt8] = []
  /// How many lines there are.
  private(set) var count = 0

  var isFull: Bool { lines.count >= Self.limit }

  var isEmpty: Bool { count == 0 }

  /// Starts an empty batch for `name` in `storage`, taken from the caller, so that batches use
  /// their event loop's buffer instead of keeping one per connection.
  mutating func start(_ name: String, storage: inout [UInt8]) {
    assert(isEmpty, "a batch starts empty")
    swap(&lines, &storage)
    lines.removeAll(keepingCapacity: true)
    if name != stream {
      linePrefix = DeliveryEncoder.prefix(stream: name)
      streamBytes = Array(name.utf8)
    }
    stream = name
  }

  /// Adds a delivery of raw, validated JSON `value`, to the batch's topic.
  mutating func append(_ value: UnsafeRawBufferPointer) {
    DeliveryEncoder.append(rawValue: value, after: linePrefix, to: &lines)
    count += 1
  }

  /// Adds `publish` when it is for the batch's topic, as ``Session`` would batch it; the batch
  /// must not be empty. Returns whether it was added.
  ///
  /// The same decision as comparing names, made on the bytes of the line: most publishes of a
  /// busy publisher take this way, and it spares them a `String` and a ``Request`` each.
  mutating func append(_ publish: PublishShape.Parts) -> Bool {
    assert(!isEmpty, "an empty batch is started")
    guard isFor(publish) else { return false }
    appendLine(of: publish)
    return true
  }

  /// Starts the empty batch again in `scratch` with `publish`, when it is for the last batch's
  /// topic and that is still `lastTopic`, as ``Session`` would batch it. Returns whether it
  /// was added.
  mutating func start(
    _ publish: PublishShape.Parts, continuing lastTopic: Topic?, scratch: PublishScratch
  ) -> Bool {
    assert(isEmpty, "a batch starts empty")
    guard let stream, isFor(publish), let lastTopic, lastTopic.name == stream else {
      return false
    }
    start(stream, storage: &scratch.bytes)
    appendLine(of: publish)
    return true
  }

  /// Whether `publish` names the batch's topic (that of the last batch while it is empty).
  private func isFor(_ publish: PublishShape.Parts) -> Bool {
    guard stream != nil, publish.name.count == streamBytes.count else { return false }
    return streamBytes.withUnsafeBytes {
      $0.baseAddress!.bytesEqual(publish.name.baseAddress!, count: $0.count)
    }
  }

  /// Adds the delivery line of `publish`, which is for the batch's topic.
  private mutating func appendLine(of publish: PublishShape.Parts) {
    // The request line already holds the delivery line but for its ends: one copy instead
    // of the prefix, the value and the end copied apart.
    lines.append(UInt8(ascii: "{"))
    lines.append(bytes: publish.deliveryBody)
    lines.append(UInt8(ascii: "\n"))
    count += 1
  }

  /// Empties the batch and hands its storage back, emptied, with its capacity.
  mutating func end(returningStorageTo storage: inout [UInt8]) {
    count = 0
    lines.removeAll(keepingCapacity: true)
    swap(&lines, &storage)
  }
}
