import Glibc

/// Line breaks in a WebSocket text message, which carries one request: a message has no line
/// framing of its own, but every line the server delivers must stay one line.
///
/// One trailing `\n` or `\r\n` is framing, as on TCP, and is dropped: `ping\n` is `ping`.
/// Other raw line breaks outside JSON strings are whitespace (RFC 8259 section 2), so each
/// becomes a space: a pretty-printed value is published exactly as its compact form would be,
/// and a TCP subscriber still gets one line per value. The length does not change, so the
/// message is rewritten in place. A raw line break inside a string is left alone for the
/// JSON reader to refuse (`bad_request`), since it is not JSON.
package enum MessageLineBreaks {
  /// Drops one trailing line break from `message` and turns the others outside strings into
  /// spaces. Costs a scan for `\n` and `\r` only, unless there is one.
  package static func normalize(_ message: inout [UInt8]) {
    if message.last == 0x0A {
      message.removeLast()
      if message.last == 0x0D { message.removeLast() }
    }
    guard contains(0x0A, in: message) || contains(0x0D, in: message) else { return }
    var inString = false
    var escaped = false
    for index in message.indices {
      let byte = message[index]
      if inString {
        if escaped {
          escaped = false
        } else if byte == 0x5C {
          escaped = true
        } else if byte == 0x22 {
          inString = false
        }
      } else if byte == 0x22 {
        inString = true
      } else if byte == 0x0A || byte == 0x0D {
        message[index] = 0x20
      }
    }
  }

  /// Whether `message` holds `byte`, found with `memchr`.
  private static func contains(_ byte: UInt8, in message: [UInt8]) -> Bool {
    message.withUnsafeBytes { bytes in
      guard let base = bytes.baseAddress else { return false }
      return memchr(base, Int32(byte), bytes.count) != nil
    }
  }
}
