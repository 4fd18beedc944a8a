/// Why a byte sequence is not a single well-formed JSON value, and where the scanner noticed.
///
/// The offset is a byte position in the scanned buffer (the buffer's length for premature end of
/// input) so a client can be told precisely which part of its line was rejected.
package struct JSONSyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
  /// Byte position of the first byte that cannot be part of a valid document.
  package let offset: Int
  /// Short human-readable explanation, suitable for echoing back to a client.
  package let reason: String

  package var description: String { "\(reason) at byte \(offset)" }
}

extension JSONSyntaxError {
  /// Describes a byte that no grammar rule allows at this position.
  ///
  /// Printable ASCII is quoted as a character because that is what a person typed; anything else is
  /// shown in hex since echoing raw control or non-UTF-8 bytes back would corrupt the reply line.
  package static func unexpected(_ byte: UInt8, at offset: Int) -> JSONSyntaxError {
    if byte > 0x20 && byte < 0x7F {
      return JSONSyntaxError(
        offset: offset, reason: "unexpected character '\(Character(Unicode.Scalar(byte)))'")
    }
    return JSONSyntaxError(offset: offset, reason: "unexpected byte \(hexByte(byte))")
  }

  private static func hexByte(_ byte: UInt8) -> String {
    let digits = Array("0123456789ABCDEF".utf8)
    let text = [0x30, 0x78, digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]]
    return String(decoding: text, as: UTF8.self)
  }
}
