#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Writes server frames (unmasked, RFC 6455 section 5.1) into a caller's buffer, compressing
/// data messages when permessage-deflate was agreed.
///
/// Built for the delivery path: a chunk of lines becomes one text frame per line with no
/// allocation per line when not compressing (the output buffer grows as arrays do).
/// Not thread-safe: one per connection, used on the connection's loop only.
public final class WebSocketFrameEncoder {
  private var deflater: PerMessageDeflater?

  /// An encoder; `deflate` is the negotiated permessage-deflate, nil when none was.
  public init(deflate: PerMessageDeflateParameters? = nil) throws(ZlibFailure) {
    deflater = try deflate.map { (parameters) throws(ZlibFailure) in
      try PerMessageDeflater(parameters)
    }
  }

  /// Whether data messages are being compressed.
  public var compresses: Bool { deflater != nil }

  /// Appends one text message for each `\n`-terminated line in `lines`, the `\n` left out.
  /// Bytes after the last `\n` make one more message, so nothing given is dropped.
  public func appendTextMessages(lines: UnsafeRawBufferPointer, to output: inout [UInt8]) {
    guard let base = lines.baseAddress else { return }
    var start = 0
    while start < lines.count {
      var end = lines.count
      if let newline = memchr(base + start, 0x0A, lines.count - start) {
        end = UnsafeRawPointer(newline) - base
      }
      appendText(UnsafeRawBufferPointer(rebasing: lines[start..<end]), to: &output)
      start = end + 1
    }
  }

  /// Appends one text message per line; see the variant taking a buffer.
  public func appendTextMessages(lines: [UInt8], to output: inout [UInt8]) {
    lines.withUnsafeBytes { appendTextMessages(lines: $0, to: &output) }
  }

  /// Appends `message`, which must be UTF-8, as one unfragmented text message.
  public func appendText(_ message: UnsafeRawBufferPointer, to output: inout [UInt8]) {
    appendData(opcode: 0x1, message, to: &output)
  }

  /// Appends `message` as one unfragmented binary message.
  public func appendBinary(_ message: UnsafeRawBufferPointer, to output: inout [UInt8]) {
    appendData(opcode: 0x2, message, to: &output)
  }

  private func appendData(
    opcode: UInt8, _ message: UnsafeRawBufferPointer, to output: inout [UInt8]
  ) {
    if let deflater {
      do {
        try deflater.compress(message)
        Self.appendHeader(
          opcode: opcode, rsv1: true, length: deflater.compressed.count, to: &output)
        output.append(contentsOf: deflater.compressed)
        return
      } catch {
        // The compressor's window may now hold bytes the client never saw, so later
        // messages go uncompressed, which RFC 7692 always allows.
        self.deflater = nil
      }
    }
    Self.appendHeader(opcode: opcode, rsv1: false, length: message.count, to: &output)
    output.append(contentsOf: message)
  }

  /// Appends a ping; payloads past the 125 bytes a control frame holds are cut.
  public static func appendPing(_ payload: [UInt8] = [], to output: inout [UInt8]) {
    appendControl(opcode: 0x9, payload.prefix(125), to: &output)
  }

  /// Appends a pong, normally echoing a ping's payload.
  public static func appendPong(_ payload: [UInt8], to output: inout [UInt8]) {
    appendControl(opcode: 0xA, payload.prefix(125), to: &output)
  }

  /// Appends a close frame; the reason is cut at a character boundary to fit 123 bytes.
  /// A nil code sends an empty close, which the peer reads as 1005.
  public static func appendClose(
    _ code: WebSocketCloseCode?, reason: String = "", to output: inout [UInt8]
  ) {
    guard let code else {
      appendControl(opcode: 0x8, [], to: &output)
      return
    }
    var payload = [UInt8(code.rawValue >> 8), UInt8(truncatingIfNeeded: code.rawValue)]
    var reasonBytes = 0
    for character in reason {
      let size = character.utf8.count
      guard reasonBytes + size <= 123 else { break }
      payload.append(contentsOf: character.utf8)
      reasonBytes += size
    }
    appendControl(opcode: 0x8, payload[...], to: &output)
  }

  private static func appendControl(
    opcode: UInt8, _ payload: ArraySlice<UInt8>, to output: inout [UInt8]
  ) {
    appendHeader(opcode: opcode, rsv1: false, length: payload.count, to: &output)
    output.append(contentsOf: payload)
  }

  /// The length, header included, of the unmasked frame this encoder wrote at `start` of
  /// `output`; nil when its header is not all there. Lets a server cut its queued output
  /// after the frame being written, so that a close frame can follow at once.
  public static func frameLength(in output: UnsafeRawBufferPointer, at start: Int) -> Int? {
    guard start >= 0, start + 2 <= output.count else { return nil }
    let marker = Int(output[start + 1] & 0x7F)
    switch marker {
    case 126:
      guard start + 4 <= output.count else { return nil }
      return 4 + (Int(output[start + 2]) << 8 | Int(output[start + 3]))
    case 127:
      guard start + 10 <= output.count else { return nil }
      return 10 + output[(start + 2)..<(start + 10)].reduce(0) { $0 << 8 | Int($1) }
    default:
      return 2 + marker
    }
  }

  /// A final frame's header without a mask, with the shortest length encoding.
  static func appendHeader(opcode: UInt8, rsv1: Bool, length: Int, to output: inout [UInt8]) {
    output.append(0x80 | (rsv1 ? 0x40 : 0) | opcode)
    if length < 126 {
      output.append(UInt8(length))
    } else if length <= 0xFFFF {
      output.append(126)
      output.append(UInt8(length >> 8))
      output.append(UInt8(truncatingIfNeeded: length))
    } else {
      output.append(127)
      for shift in stride(from: 56, through: 0, by: -8) {
        output.append(UInt8(truncatingIfNeeded: length >> shift))
      }
    }
  }
}
