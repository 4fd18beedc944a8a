import Deflate
import Glibc
import ObservableFraming

/// The bytes a ``Connection`` is writing to its socket: lines taken from its ``Outbox`` a
/// batch at a time, framed and compressed as the connection is, sent from ``offset`` on; or,
/// when they go out as they were queued, the queued chunks themselves (``chunks``), sent
/// before ``bytes``.
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
  /// What the outbox held, as the arrays it was queued in, when it goes out unchanged: no
  /// copy per connection. Sent before ``bytes``, which holds only what was appended after.
  private(set) var chunks = UnsentChunks()
  /// Lines taken from the outbox before they are framed or compressed; kept for its capacity.
  private var plain: [UInt8] = []
  /// The chunks taken into ``plain``; kept for its capacity.
  private var takenChunks = OutboxChunks()
  /// Raw deflate in both directions, once a `compress` request switched it on.
  var compression: WireCompression?
  /// The TLS layer of a TLS listener's connection: everything appended is then encrypted
  /// last, after framing and deflate, and ``bytes`` holds TLS records.
  var tls: ConnectionTLS?

  /// Whether every byte readied was sent.
  var isAllSent: Bool { chunks.count == 0 && offset == bytes.count }

  /// How many bytes readied are not sent yet.
  var unsentCount: Int { chunks.count + bytes.count - offset }

  /// The memory the buffers and the compressor hold, which a close gives back.
  var heldBytes: Int {
    bytes.capacity + plain.capacity + (compression == nil ? 0 : HeapTrim.compressionBytes)
      + (tls?.heldBytes ?? 0)
  }

  /// Points `iovecs` at the bytes not sent yet, in order, as many pieces as fit; returns how
  /// many it filled. The pointers stay valid until the next change to the bytes readied.
  func gatherUnsent(into iovecs: UnsafeMutableBufferPointer<iovec>) -> Int {
    var filled = chunks.gather(into: iovecs)
    if filled < iovecs.count, offset < bytes.count {
      bytes.withUnsafeBytes { all in
        iovecs[filled] = iovec(
          iov_base: UnsafeMutableRawPointer(mutating: all.baseAddress! + offset),
          iov_len: all.count - offset)
      }
      filled += 1
    }
    return filled
  }

  /// The arrays ``gatherUnsent(into:)`` points into: holding them keeps those bytes where
  /// they are, whatever this does with its buffers meanwhile.
  struct Held {
    let chunks: [OutboxChunk]
    let bytes: [UInt8]
  }

  /// What keeps the bytes ``gatherUnsent(into:)`` points at where they are: a send in flight
  /// holds it until it completes.
  var held: Held { Held(chunks: chunks.held, bytes: bytes) }

  /// Counts `count` more bytes as taken by the socket: the chunks' first, then ``bytes``.
  mutating func sent(_ count: Int) {
    offset += count - chunks.sent(count)
  }

  /// Drops the chunks not sent yet, at a close.
  mutating func releaseChunks() {
    chunks.release()
  }

  /// Replaces the sent bytes with what the outbox holds, framed and compressed. Returns how
  /// many bytes of lines it took, before framing and compression.
  mutating func refill(from outbox: Outbox, framing: any Framing) -> Int {
    offset = 0
    if bytes.capacity > 1 << 20 { bytes = [] }
    // Lines, or SSE events, as they are: no copy, the outbox's buffer is the one written.
    let asQueued =
      compression == nil && (framing.sendsLinesUnchanged || framing.outboxHoldsWireForm)
    if asQueued {
      bytes.removeAll(keepingCapacity: true)
      guard let tls else { return chunks.take(from: outbox) }
      return sealQueued(from: outbox, through: tls)
    }
    outbox.take(replacingWith: &plain, chunks: &takenChunks, inFlight: 0)
    bytes.removeAll(keepingCapacity: true)
    guard !plain.isEmpty else { return 0 }
    plain.withUnsafeBytes { lines in
      if let compression {
        Self.write(into: &bytes, through: tls) { compression.deflate(lines, appendingTo: &$0) }
      } else {
        Self.write(into: &bytes, through: tls) { framing.encode(lines, to: &$0) }
      }
    }
    return plain.count
  }

  /// Seals what the outbox holds, lines or events as they were queued, into ``bytes``; returns
  /// how many bytes it took. A batch of one chunk (most batches: a publish batch is one chunk)
  /// goes to TLS as the shared array itself, without gathering it first; several are gathered
  /// into one buffer, so that one `send` fills records of up to 16 KiB (each `send` ends a
  /// record, and a record costs OpenSSL more than copying its bytes).
  private mutating func sealQueued(from outbox: Outbox, through tls: ConnectionTLS) -> Int {
    outbox.take(chunks: &takenChunks, inFlight: 0)
    defer { takenChunks.removeAll() }
    if takenChunks.chunks.count == 1 {
      takenChunks.chunks[0].bytes.withUnsafeBytes { tls.seal($0, appendingTo: &bytes) }
    } else if !takenChunks.isEmpty {
      plain.removeAll(keepingCapacity: true)
      takenChunks.copyBytes(to: &plain)
      plain.withUnsafeBytes { tls.seal($0, appendingTo: &bytes) }
    }
    return takenChunks.byteCount
  }

  /// Drops what was fully sent, so that bytes appended next start a fresh buffer.
  mutating func compact() {
    guard isAllSent else { return }
    bytes.removeAll(keepingCapacity: true)
    offset = 0
  }

  /// Appends `more`, whole units of the framing, behind everything readied.
  mutating func append(_ more: [UInt8]) {
    guard let tls else { return bytes.append(contentsOf: more) }
    more.withUnsafeBytes { tls.seal($0, appendingTo: &bytes) }
  }

  /// Appends `lines`, whole lines, in the framing's wire form behind everything readied.
  mutating func append(lines: [UInt8], framing: any Framing) {
    lines.withUnsafeBytes { lines in
      Self.write(into: &bytes, through: tls) { framing.encode(lines, to: &$0) }
    }
  }

  /// Moves the lines the outbox holds, framed, behind the bytes being written, so that bytes
  /// appended next (the `compress` reply, a WebSocket close) follow every line queued before.
  /// Returns how many bytes of lines it moved.
  mutating func moveQueuedLines(from outbox: Outbox, framing: any Framing) -> Int {
    compact()
    outbox.take(replacingWith: &plain, chunks: &takenChunks, inFlight: unsentCount)
    guard !plain.isEmpty else { return 0 }
    plain.withUnsafeBytes { lines in
      Self.write(into: &bytes, through: tls) { framing.encode(lines, to: &$0) }
    }
    return plain.count
  }

  /// The rest of the framing's unit (a frame) being written, which must go out whole before
  /// anything else; `nil` when the framing has no units to cut.
  func restOfCurrentUnit(framing: any Framing) -> [UInt8]? {
    // A chunk holds whole units: the one being written ends inside it.
    if let rest = chunks.withCurrentChunk({ chunk, offset in
      framing.endOfUnit(in: chunk, containing: offset).map { Array(chunk[offset..<$0]) }
    }) {
      return rest
    }
    if tls != nil {
      // Records cannot be cut, but each carries whole units: the rest goes out whole.
      let empty = UnsafeRawBufferPointer(start: nil, count: 0)
      guard framing.endOfUnit(in: empty, containing: 0) != nil else { return nil }
      return Array(bytes[offset...])
    }
    guard let end = bytes.withUnsafeBytes({ framing.endOfUnit(in: $0, containing: offset) })
    else { return nil }
    return Array(bytes[offset..<end])
  }

  /// Drops everything readied after the unit being written; returns `false`, dropping
  /// nothing, when the framing has no units to cut.
  mutating func keepOnlyCurrentUnit(framing: any Framing) -> Bool {
    // A fresh buffer, so that the memory the queue held goes back now, not at the close.
    guard let rest = restOfCurrentUnit(framing: framing) else { return false }
    chunks.release()
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
    if let tls {
      // The records not sent yet carry whole lines, frames or deflate output: the notice
      // follows them, sealed.
      notice = Array(bytes[offset...])
      line.withUnsafeBytes { line in
        tls.seal(appendingTo: &notice) { plain in
          if let compression {
            compression.deflate(line, appendingTo: &plain)
          } else {
            framing.encode(line, to: &plain)
          }
        }
      }
    } else if let compression {
      // Compressed output is one stream: the notice can only follow what was fully written.
      guard isAllSent else { return nil }
      line.withUnsafeBytes { compression.deflate($0, appendingTo: &notice) }
    } else if framing.sendsLinesUnchanged {
      // Finish the line being written, if the socket takes it, so the notice starts a line.
      // A chunk holds whole lines: the one being written ends inside it.
      if let rest = chunks.withCurrentChunk({ chunk, offset in
        Array(chunk[offset...].prefix { $0 != 0x0A }) + [0x0A]
      }) {
        notice = rest
      } else if !isAllSent {
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

  /// `plaintext` as it goes on the wire: sealed in a TLS record on a TLS connection, as it is
  /// otherwise. For the last bytes sent at once before a close (a farewell frame).
  func sealed(_ plaintext: [UInt8]) -> [UInt8] {
    guard let tls, !plaintext.isEmpty else { return plaintext }
    var records: [UInt8] = []
    plaintext.withUnsafeBytes { tls.seal($0, appendingTo: &records) }
    return records
  }

  /// Appends the records TLS has for the peer on its own (handshake messages, alerts, session
  /// tickets), and the plaintext that waited for the handshake, sealed.
  mutating func appendTLSRecords() {
    guard let tls else { return }
    compact()
    tls.takeRecords(appendingTo: &bytes)
  }

  /// Lets `body` append plaintext to `bytes`, sealed by `tls` when there is one.
  private static func write(
    into bytes: inout [UInt8], through tls: ConnectionTLS?, _ body: (inout [UInt8]) -> Void
  ) {
    guard let tls else { return body(&bytes) }
    tls.seal(appendingTo: &bytes, body)
  }
}
