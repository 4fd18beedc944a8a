/// Writes text as JSON string literals into an outgoing byte buffer.
///
/// Output lines are built by appending to one `[UInt8]`, so the encoder copies runs of plain bytes
/// in bulk and only handles the bytes RFC 8259 requires to be escaped. Non-ASCII text is emitted
/// as UTF-8 unchanged: escaping it would only make lines longer.
package enum JSONStringEncoding {
  /// Appends `text` as a JSON string literal, with quotes, to `out`.
  ///
  /// `"`, `\` and U+0000–U+001F are escaped, using the short forms `\b \f \n \r \t` where they exist
  /// and `\u00XX` otherwise. U+2028 and U+2029 are left alone because the output is JSON, not
  /// JavaScript source.
  package static func append(_ text: String, to out: inout [UInt8]) {
    var text = text
    text.withUTF8 { append(utf8: UnsafeRawBufferPointer($0), to: &out) }
  }

  /// Appends raw bytes, known to be valid UTF-8, as a JSON string literal to `out`.
  package static func append(utf8 bytes: UnsafeRawBufferPointer, to out: inout [UInt8]) {
    reserveRoom(bytes.count &+ 2, in: &out)
    out.append(UInt8(ascii: "\""))
    if let base = bytes.baseAddress {
      var runStart = 0
      while true {
        let special = JSONPlainBytes.specialByteOffset(
          in: base, from: runStart, to: bytes.count, stopAtNonASCII: false)
        if special > runStart {
          out.append(
            contentsOf: UnsafeRawBufferPointer(start: base + runStart, count: special &- runStart))
        }
        guard special < bytes.count else { break }
        appendEscape(for: base.load(fromByteOffset: special, as: UInt8.self), to: &out)
        runStart = special &+ 1
      }
    }
    out.append(UInt8(ascii: "\""))
  }

  private static func appendEscape(for byte: UInt8, to out: inout [UInt8]) {
    let short: UInt8
    switch byte {
    case UInt8(ascii: "\""), UInt8(ascii: "\\"): short = byte
    case 0x08: short = UInt8(ascii: "b")
    case 0x0C: short = UInt8(ascii: "f")
    case 0x0A: short = UInt8(ascii: "n")
    case 0x0D: short = UInt8(ascii: "r")
    case 0x09: short = UInt8(ascii: "t")
    default:
      let digits: StaticString = "0123456789abcdef"
      let hex = digits.utf8Start
      out.append(contentsOf: [
        UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
        hex[Int(byte &>> 4)], hex[Int(byte & 0x0F)],
      ])
      return
    }
    out.append(UInt8(ascii: "\\"))
    out.append(short)
  }

  /// Grows `out` geometrically when it lacks `extra` free slots.
  ///
  /// Calling `reserveCapacity(count + extra)` on every append would reallocate to the exact size
  /// each time and make building a long line quadratic.
  @inline(__always)
  private static func reserveRoom(_ extra: Int, in out: inout [UInt8]) {
    let needed = out.count &+ extra
    if out.capacity < needed { out.reserveCapacity(Swift.max(needed, out.capacity &* 2)) }
  }
}
