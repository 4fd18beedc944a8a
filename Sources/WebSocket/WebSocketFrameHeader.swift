/// The fixed part of a frame (RFC 6455 section 5.2), checked as far as it can be alone.
struct WebSocketFrameHeader {
  /// Opcodes this implementation knows; the rest are reserved and refused.
  enum Opcode: UInt8 {
    case continuation = 0x0
    case text = 0x1
    case binary = 0x2
    case close = 0x8
    case ping = 0x9
    case pong = 0xA

    /// Close, ping and pong: at most 125 bytes, never fragmented.
    var isControl: Bool { rawValue & 0x8 != 0 }
  }

  /// The last frame of its message.
  let fin: Bool
  /// Compressed (permessage-deflate), allowed on a message's first frame only.
  let rsv1: Bool
  /// What the frame carries.
  let opcode: Opcode
  /// The payload's length as declared, already checked against nothing but the encoding.
  let payloadLength: Int
  /// The masking key in wire (memory) order.
  let maskKey: UInt32

  /// The whole header's length, known from its first two bytes.
  static func length(second byte: UInt8) -> Int {
    switch byte & 0x7F {
    case 126: return 2 + 2 + 4
    case 127: return 2 + 8 + 4
    default: return 2 + 4
    }
  }

  /// Checks the first two bytes, which is as early as most errors can be seen.
  static func check(first: UInt8, second: UInt8) throws(WebSocketProtocolError) -> Opcode {
    guard first & 0x30 == 0 else { throw protocolError("RSV2 or RSV3 set") }
    guard let opcode = Opcode(rawValue: first & 0x0F) else {
      throw protocolError("reserved opcode \(first & 0x0F)")
    }
    guard second & 0x80 != 0 else { throw protocolError("client frame not masked") }
    if opcode.isControl {
      guard first & 0x80 != 0 else { throw protocolError("fragmented control frame") }
      guard second & 0x7F <= 125 else { throw protocolError("control frame over 125 bytes") }
      guard first & 0x40 == 0 else { throw protocolError("RSV1 on a control frame") }
    }
    return opcode
  }

  /// Parses a complete header of `length(second:)` bytes, already passed by `check`.
  init(_ bytes: [UInt8]) throws(WebSocketProtocolError) {
    let opcode = try Self.check(first: bytes[0], second: bytes[1])
    var length = Int(bytes[1] & 0x7F)
    var keyOffset = 2
    if length == 126 {
      length = Int(bytes[2]) << 8 | Int(bytes[3])
      keyOffset = 4
      guard length >= 126 else { throw Self.protocolError("length not minimally encoded") }
    } else if length == 127 {
      guard bytes[2] & 0x80 == 0 else { throw Self.protocolError("length's top bit set") }
      length = bytes[2..<10].reduce(0) { $0 << 8 | Int($1) }
      keyOffset = 10
      guard length > 0xFFFF else { throw Self.protocolError("length not minimally encoded") }
    }
    self.fin = bytes[0] & 0x80 != 0
    self.rsv1 = bytes[0] & 0x40 != 0
    self.opcode = opcode
    self.payloadLength = length
    self.maskKey = bytes.withUnsafeBytes {
      $0.loadUnaligned(fromByteOffset: keyOffset, as: UInt32.self)
    }
  }

  /// A 1002 close for `reason`.
  static func protocolError(_ reason: String) -> WebSocketProtocolError {
    WebSocketProtocolError(.protocolError, reason)
  }
}
