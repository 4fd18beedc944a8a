import Deflate
import ObservableFraming

/// The bytes a ``Connection`` is writing to its socket: lines taken from its ``Outbox`` a
/// batch at a time, framed and compressed as the connection is, sent from ``offset`` on.
///
/// A value inside its connection, so the write path reaches the bytes with no extra
/// reference. Whatever is appended after the bytes being written (a framed response, a
/// control frame, a farewell) stays behind them, so a frame cut short is never interleaved.
/// Loop thread only, as its connection.
package struct OutgoingBytes {
  /// The framed and compressed bytes, of which those before ``offset`` are sent.
  private(set) var bytes: [UInt8] = []
  /// How many of ``bytes`` the socket took.
  private(set) var offset = 0
  /// Lines taken from the outbox before they are framed or compressed; kept for its capacity.
  private var plain: [UInt8] = []
  /// Raw deflate in both directions, once a `compress` request switched it on.
  var compression: WireCompression?

  /// Whether every byte readied was sent.
  var isAllSent: Bool { offset == bytes.count }

  /// How many bytes readied are not sent yet.
  var unsentCount: Int { bytes.count - offset }

  /// The memory the buffers and the compressor hold, which a close gives back.
  var heldBytes: Int {
    bytes.capacity + plain.capacity + (compression == nil ? 0 : HeapTrim.compressionBytes)
  }

  /// Calls `body` with the bytes not sent yet.
  func withUnsentBytes<Value>(_ body: (UnsafeRawBufferPointer) -> Value) -> Value {
    bytes.withUnsafeBytes { body(UnsafeRawBufferPointer(rebasing: $0[offset...])) }
  }

  /// Counts `count` more bytes as taken by the socket.
  mutating func sent(_ count: Int) {
    offset += count
  }

  /// Replaces the sent bytes with what the outbox holds, framed and compressed. Returns how
  /// many bytes of lines it took, before framing and compression.
  mutating func refill(from outbox: Outbox, framing: any Framing) -> Int {
    offset = 0
    if bytes.capacity > 1 << 20 { bytes = [] }
    if compression == nil, framing.sendsLinesUnchanged {
      outbox.take(replacingWith: &bytes, inFlight: 0)
      return bytes.count
    }
    outbox.take(replacingWith: &plain, inFlight: 0)
    bytes.removeAll(keepingCapacity: true)
    guard !plain.isEmpty else { return 0 }
    plain.withUnsafeBytes { lines in
      if let compression {
        compression.deflate(lines, appendingTo: &bytes)
      } else {
        framing.encode(lines, to: &bytes)
      }
    }
    return plain.count
  }

  /// Drops what was fully sent, so that bytes appended next start a fresh buffer.
  mutating func compact() {
    guard isAllSent else { return }
    bytes.removeAll(keepingCapacity: true)
    offset = 0
  }

  /// Appends `more`, whole units of the framing, behind everything readied.
  mutating func append(_ more: [UInt8]) {
    bytes.append(contentsOf: more)
  }

  /// Appends `lines`, whole lines, in the framing's wire form behind everything readied.
  mutating func append(lines: [UInt8], framing: any Framing) {
    lines.withUnsafeBytes { framing.encode($0, to: &bytes) }
  }

  /// Moves the lines the outbox holds, framed, behind the bytes being written, so that bytes
  /// appended next (the `compress` reply, a WebSocket close) follow every line queued before.
  /// Returns how many bytes of lines it moved.
  mutating func moveQueuedLines(from outbox: Outbox, framing: any Framing) -> Int {
    compact()
    outbox.take(replacingWith: &plain, inFlight: unsentCount)
    guard !plain.isEmpty else { return 0 }
    plain.withUnsafeBytes { framing.encode($0, to: &bytes) }
    return plain.count
  }

  /// The rest of the framing's unit (a frame) being written, which must go out whole before
  /// anything else; `nil` when the framing has no units to cut.
  func restOfCurrentUnit(framing: any Framing) -> [UInt8]? {
    guard let end = bytes.withUnsafeBytes({ framing.endOfUnit(in: $0, containing: offset) })
    else { return nil }
    return Array(bytes[offset..<end])
  }

  /// Drops everything readied after the unit being written; returns `false`, dropping
  /// nothing, when the framing has no units to cut.
  mutating func keepOnlyCurrentUnit(framing: any Framing) -> Bool {
    // A fresh buffer, so that the memory the queue held goes back now, not at the close.
    guard let rest = restOfCurrentUnit(framing: framing) else { return false }
    bytes = rest
    offset = 0
    return true
  }

  /// The bytes that tell a client too slow to read why it is closed: `line` (a notice),
  /// compressed or framed as the connection writes, after the rest of the line being
  /// written when lines go out unchanged. `nil` when the notice cannot follow what is being
  /// written (a compressed stream or a frame cut short); the connection then just closes.
  func slowConsumerNotice(_ line: [UInt8], framing: any Framing) -> [UInt8]? {
    var notice: [UInt8] = []
    if let compression {
      // Compressed output is one stream: the notice can only follow what was fully written.
      guard isAllSent else { return nil }
      line.withUnsafeBytes { compression.deflate($0, appendingTo: &notice) }
    } else if framing.sendsLinesUnchanged {
      // Finish the line being written, if the socket takes it, so the notice starts a line.
      if !isAllSent {
        notice = bytes[offset...].prefix { $0 != 0x0A } + [0x0A]
      }
      notice += line
    } else {
      // A frame cut short cannot be finished: the notice goes out only between frames.
      guard isAllSent else { return nil }
      line.withUnsafeBytes { framing.encode($0, to: &notice) }
    }
    return notice
  }
}
