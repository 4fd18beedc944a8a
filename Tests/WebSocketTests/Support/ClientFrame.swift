@testable import WebSocket

/// Builds frames as a client sends them (masked unless told otherwise), written here from
/// RFC 6455 section 5.2 rather than through the encoder under test.
struct ClientFrame {
  /// The header bits, each settable to break a rule on purpose.
  var fin = true
  var rsv1 = false
  var rsv2 = false
  var rsv3 = false
  var opcode: UInt8
  /// The payload before masking.
  var payload: [UInt8]
  /// The masking key; nil sends the frame unmasked, which a server must refuse.
  var maskKey: [UInt8]? = [0x37, 0xFA, 0x21, 0x3D]
  /// Forces the 16- or 64-bit length form even for short payloads (to test minimality).
  var lengthForm: LengthForm = .shortest

  /// Which length encoding to write.
  enum LengthForm {
    case shortest
    case sixteenBits
    case sixtyFourBits
  }

  /// A masked text frame.
  static func text(_ text: String, fin: Bool = true) -> ClientFrame {
    ClientFrame(fin: fin, opcode: 0x1, payload: Array(text.utf8))
  }

  /// The frame as sent on the wire.
  var bytes: [UInt8] {
    var output: [UInt8] = [
      (fin ? 0x80 : 0) | (rsv1 ? 0x40 : 0) | (rsv2 ? 0x20 : 0) | (rsv3 ? 0x10 : 0) | opcode
    ]
    let maskBit: UInt8 = maskKey == nil ? 0 : 0x80
    appendLength(payload.count, maskBit: maskBit, to: &output)
    guard let maskKey else { return output + payload }
    output += maskKey
    output += payload.enumerated().map { $0.element ^ maskKey[$0.offset % 4] }
    return output
  }

  /// Only the header of a frame declaring `length` payload bytes.
  static func header(opcode: UInt8, length: Int, fin: Bool = true, rsv1: Bool = false) -> [UInt8] {
    var output: [UInt8] = [(fin ? 0x80 : 0) | (rsv1 ? 0x40 : 0) | opcode]
    ClientFrame(opcode: opcode, payload: []).appendLength(length, maskBit: 0x80, to: &output)
    return output + [1, 2, 3, 4]
  }

  private func appendLength(_ length: Int, maskBit: UInt8, to output: inout [UInt8]) {
    if length < 126 && lengthForm == .shortest {
      output.append(maskBit | UInt8(length))
    } else if length <= 0xFFFF && lengthForm != .sixtyFourBits {
      output += [maskBit | 126, UInt8(length >> 8), UInt8(length & 0xFF)]
    } else {
      output.append(maskBit | 127)
      output += stride(from: 56, through: 0, by: -8).map { UInt8(truncatingIfNeeded: length >> $0) }
    }
  }
}

/// A frame as the server wrote it, parsed independently of the decoder under test.
struct ServerFrame: Equatable {
  /// The header bits and payload as read.
  var fin: Bool
  var rsv1: Bool
  var opcode: UInt8
  var payload: [UInt8]

  /// Splits `bytes` into unmasked frames; fails the caller's expectations by returning nil
  /// when anything is off (a mask bit, a truncated frame).
  static func parseAll(_ bytes: [UInt8]) -> [ServerFrame]? {
    var frames: [ServerFrame] = []
    var offset = 0
    while offset < bytes.count {
      guard offset + 2 <= bytes.count, bytes[offset + 1] & 0x80 == 0 else { return nil }
      var length = Int(bytes[offset + 1] & 0x7F)
      var start = offset + 2
      if length == 126 {
        guard start + 2 <= bytes.count else { return nil }
        length = Int(bytes[start]) << 8 | Int(bytes[start + 1])
        start += 2
      } else if length == 127 {
        guard start + 8 <= bytes.count else { return nil }
        length = bytes[start..<start + 8].reduce(0) { $0 << 8 | Int($1) }
        start += 8
      }
      guard start + length <= bytes.count else { return nil }
      frames.append(
        ServerFrame(
          fin: bytes[offset] & 0x80 != 0, rsv1: bytes[offset] & 0x40 != 0,
          opcode: bytes[offset] & 0x0F, payload: Array(bytes[start..<start + length])))
      offset = start + length
    }
    return frames
  }
}

/// Runs a decoder over bytes, collecting events and the error, if any.
struct DecodeResult {
  /// The events in order, and the error that ended decoding, if any.
  var events: [WebSocketEvent] = []
  var error: WebSocketProtocolError?

  /// Feeds `pieces` one call each, stopping at the first error.
  static func run(
    _ decoder: WebSocketFrameDecoder, _ pieces: [[UInt8]]
  ) -> DecodeResult {
    var result = DecodeResult()
    for piece in pieces {
      do {
        try decoder.decode(piece) { result.events.append($0) }
      } catch {
        result.error = error
        return result
      }
    }
    return result
  }
}
