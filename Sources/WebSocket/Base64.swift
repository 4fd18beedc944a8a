/// Base64 with the standard alphabet and padding (RFC 4648 section 4), as the WebSocket
/// handshake's key and accept values use it.
public enum Base64 {
  private static let alphabet = Array(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

  /// The padded encoding of `bytes`.
  public static func encode(_ bytes: some Collection<UInt8>) -> String {
    let input = Array(bytes)
    var output: [UInt8] = []
    output.reserveCapacity((input.count + 2) / 3 * 4)
    var index = 0
    while index < input.count {
      let available = min(3, input.count - index)
      var group = UInt32(input[index]) << 16
      if available > 1 { group |= UInt32(input[index + 1]) << 8 }
      if available > 2 { group |= UInt32(input[index + 2]) }
      for position in 0..<4 {
        if position <= available {
          output.append(alphabet[Int(group >> UInt32(18 - 6 * position)) & 0x3F])
        } else {
          output.append(UInt8(ascii: "="))
        }
      }
      index += 3
    }
    return String(decoding: output, as: UTF8.self)
  }

  /// The bytes `text` encodes, or nil unless it is canonical padded base64: a multiple of
  /// four characters, padding only at the end, and zero bits where padding cuts a group.
  public static func decode(_ text: String) -> [UInt8]? {
    let input = Array(text.utf8)
    guard input.count % 4 == 0 else { return nil }
    var output: [UInt8] = []
    output.reserveCapacity(input.count / 4 * 3)
    for groupStart in stride(from: 0, to: input.count, by: 4) {
      let isLast = groupStart + 4 == input.count
      var group: UInt32 = 0
      var padding = 0
      for offset in 0..<4 {
        let character = input[groupStart + offset]
        if character == UInt8(ascii: "=") {
          guard isLast, offset >= 2 else { return nil }
          padding += 1
          group <<= 6
          continue
        }
        guard padding == 0, let value = sextet(character) else { return nil }
        group = group << 6 | value
      }
      let bytes = [
        UInt8(truncatingIfNeeded: group >> 16), UInt8(truncatingIfNeeded: group >> 8),
        UInt8(truncatingIfNeeded: group),
      ]
      // Non-zero bits under the padding mean a non-canonical encoding.
      if padding > 0 && bytes[3 - padding] != 0 { return nil }
      output.append(contentsOf: bytes[..<(3 - padding)])
    }
    return output
  }

  private static func sextet(_ character: UInt8) -> UInt32? {
    switch character {
    case UInt8(ascii: "A")...UInt8(ascii: "Z"): return UInt32(character - UInt8(ascii: "A"))
    case UInt8(ascii: "a")...UInt8(ascii: "z"): return UInt32(character - UInt8(ascii: "a")) + 26
    case UInt8(ascii: "0")...UInt8(ascii: "9"): return UInt32(character - UInt8(ascii: "0")) + 52
    case UInt8(ascii: "+"): return 62
    case UInt8(ascii: "/"): return 63
    default: return nil
    }
  }
}
