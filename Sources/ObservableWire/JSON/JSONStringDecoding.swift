extension JSONScanner {
  /// Decodes the JSON string token at `range` (including the quotes), already validated by this
  /// scanner, to a Swift `String`, handling all escapes including `\uXXXX` and surrogate pairs.
  ///
  /// Input that was not validated never traps or reads outside `range`: an unpaired surrogate
  /// escape (which the scanner refuses) becomes U+FFFD, a malformed escape loses its backslash
  /// and invalid UTF-8 is repaired by `String`.
  package static func decodeString(_ bytes: UnsafeRawBufferPointer, _ range: Range<Int>) -> String {
    precondition(
      range.lowerBound >= 0 && range.upperBound <= bytes.count && range.count >= 2,
      "range must lie within the buffer and cover at least the two quotes")
    return decodeContent(
      bytes.baseAddress!, from: range.lowerBound &+ 1, to: range.upperBound &- 1,
      mayContainEscapes: true)
  }

  /// Decodes the bytes between a string token's quotes.
  ///
  /// The scanner already knows whether a key has escapes; passing `false` skips the backslash
  /// search so an escape-free key costs a single copy.
  static func decodeContent(
    _ base: UnsafeRawPointer, from start: Int, to end: Int, mayContainEscapes: Bool
  ) -> String {
    let firstEscape =
      mayContainEscapes ? JSONPlainBytes.backslashOffset(in: base, from: start, to: end) : end
    guard firstEscape < end else {
      return String(
        decoding: UnsafeRawBufferPointer(start: base + start, count: end &- start), as: UTF8.self)
    }
    // Every escape decodes to no more bytes than it occupies (`\uXXXX` to at most 3, a surrogate
    // pair's 12 bytes to 4), so the raw length is always enough capacity.
    return String(unsafeUninitializedCapacity: end &- start) { text in
      var decoder = JSONStringUnescaper(source: base, end: end, target: text)
      decoder.run(from: start, firstEscape: firstEscape)
      return decoder.written
    }
  }

  /// The value of an ASCII hexadecimal digit, or `nil` for any other byte.
  @inline(__always)
  static func hexValue(_ byte: UInt8) -> UInt32? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): return UInt32(byte &- UInt8(ascii: "0"))
    case UInt8(ascii: "a")...UInt8(ascii: "f"): return UInt32(byte &- UInt8(ascii: "a") &+ 10)
    case UInt8(ascii: "A")...UInt8(ascii: "F"): return UInt32(byte &- UInt8(ascii: "A") &+ 10)
    default: return nil
    }
  }
}
