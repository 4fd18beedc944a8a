/// One JSON string token in a buffer: where it ends, checked as RFC 8259 and UTF-8 require.
///
/// Apart from ``JSONReader`` so that a value that is one string, as most published values are,
/// is checked without a reader: making one and throwing it away (its nesting stack, its member
/// list and key) cost more than scanning the string itself, about 130 instructions a publish.
struct JSONStringToken {
  /// Start of the buffer; offsets, error offsets included, are relative to it.
  let base: UnsafeRawPointer
  /// Length of the buffer: nothing at or past it is ever read.
  let end: Int

  /// Validates the string token whose opening quote is at `open` and returns the offset after
  /// its closing quote, and whether it contains escapes, so that a caller decoding it can skip
  /// the search for backslashes. Raw bytes must be well-formed UTF-8 because the decoded text
  /// is handed to `String` and to other clients verbatim.
  func scan(openingAt open: Int) throws(JSONSyntaxError) -> (next: Int, hasEscapes: Bool) {
    var offset = open &+ 1
    var hasEscapes = false
    while true {
      offset = JSONPlainBytes.specialByteOffset(
        in: base, from: offset, to: end, stopAtNonASCII: true)
      guard offset < end else {
        throw JSONSyntaxError(offset: open, reason: "unterminated string")
      }
      let special = byte(at: offset)
      if special == UInt8(ascii: "\"") {
        return (offset &+ 1, hasEscapes)
      }
      if special == UInt8(ascii: "\\") {
        hasEscapes = true
        offset = try escapeEnd(at: offset, stringStart: open)
      } else if special < 0x20 {
        throw JSONSyntaxError(offset: offset, reason: "unescaped control character in string")
      } else {
        offset = try utf8SequenceEnd(at: offset)
      }
    }
  }

  /// The byte at `offset`, read through the raw pointer; callers check `offset < end` first.
  @inline(__always)
  private func byte(at offset: Int) -> UInt8 {
    base.load(fromByteOffset: offset, as: UInt8.self)
  }

  /// Checks the escape sequence whose backslash is at `offset` and returns the offset after it.
  private func escapeEnd(at offset: Int, stringStart: Int) throws(JSONSyntaxError) -> Int {
    let letter = offset &+ 1
    guard letter < end else {
      throw JSONSyntaxError(offset: stringStart, reason: "unterminated string")
    }
    switch byte(at: letter) {
    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"),
      UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
      return letter &+ 1
    case UInt8(ascii: "u"):
      return try unicodeEscapeEnd(at: offset, stringStart: stringStart)
    default:
      throw JSONSyntaxError(offset: offset, reason: "invalid escape sequence")
    }
  }

  /// Checks the `\uXXXX` escape whose backslash is at `offset`, and the low surrogate escape
  /// that must follow a high one, and returns the offset after them.
  ///
  /// An unpaired surrogate escape is grammatical JSON (RFC 8259 section 8.2 leaves its meaning
  /// open) but stands for no Unicode scalar: I-JSON (RFC 7493 section 2.1) forbids it, and a
  /// subscriber's parser may refuse the whole line. Values are relayed verbatim, so the escape
  /// is refused here rather than repaired in a copy.
  private func unicodeEscapeEnd(at offset: Int, stringStart: Int) throws(JSONSyntaxError) -> Int {
    let unit = try codeUnit(at: offset, stringStart: stringStart)
    switch unit {
    case 0xD800...0xDBFF:
      let next = offset &+ 6
      // Input that ends where the low escape would be is cut short, not unpaired: the error is
      // the string's end, as for any escape cut short.
      if next >= end || (next &+ 1 == end && byte(at: next) == UInt8(ascii: "\\")) {
        throw JSONSyntaxError(offset: stringStart, reason: "unterminated string")
      }
      guard next &+ 1 < end, byte(at: next) == UInt8(ascii: "\\"),
        byte(at: next &+ 1) == UInt8(ascii: "u"),
        (0xDC00...0xDFFF).contains(try codeUnit(at: next, stringStart: stringStart))
      else {
        throw JSONSyntaxError(offset: offset, reason: "unpaired surrogate escape")
      }
      return next &+ 6
    case 0xDC00...0xDFFF:
      throw JSONSyntaxError(offset: offset, reason: "unpaired surrogate escape")
    default:
      return offset &+ 6
    }
  }

  /// The value of the four hexadecimal digits of the `\uXXXX` escape at `offset`.
  private func codeUnit(at offset: Int, stringStart: Int) throws(JSONSyntaxError) -> UInt32 {
    var value: UInt32 = 0
    for digit in (offset &+ 2)..<(offset &+ 6) {
      guard digit < end else {
        throw JSONSyntaxError(offset: stringStart, reason: "unterminated string")
      }
      guard let nibble = JSONScanner.hexValue(byte(at: digit)) else {
        throw JSONSyntaxError(offset: offset, reason: "invalid \\u escape")
      }
      value = value &<< 4 | nibble
    }
    return value
  }

  /// Checks the multi-byte UTF-8 sequence whose lead byte is at `offset` and returns the offset
  /// after it.
  ///
  /// The allowed ranges for the second byte follow Unicode Table 3-7, which is what rules out
  /// overlong forms (C0, C1, E0 80–9F, F0 80–8F), UTF-16 surrogates (ED A0–BF) and code points
  /// above U+10FFFF (F4 90–BF, F5–FF).
  private func utf8SequenceEnd(at offset: Int) throws(JSONSyntaxError) -> Int {
    let lead = byte(at: offset)
    let length: Int
    var low: UInt8 = 0x80
    var high: UInt8 = 0xBF
    switch lead {
    case 0xC2...0xDF: length = 2
    case 0xE0: (length, low) = (3, 0xA0)
    case 0xE1...0xEC, 0xEE...0xEF: length = 3
    case 0xED: (length, high) = (3, 0x9F)
    case 0xF0: (length, low) = (4, 0x90)
    case 0xF1...0xF3: length = 4
    case 0xF4: (length, high) = (4, 0x8F)
    default: throw invalidUTF8(at: offset)
    }
    guard offset &+ length <= end else { throw invalidUTF8(at: offset) }
    let second = byte(at: offset &+ 1)
    guard second >= low && second <= high else { throw invalidUTF8(at: offset) }
    for continuation in (offset &+ 2)..<(offset &+ length) {
      guard byte(at: continuation) & 0xC0 == 0x80 else { throw invalidUTF8(at: offset) }
    }
    return offset &+ length
  }

  private func invalidUTF8(at offset: Int) -> JSONSyntaxError {
    JSONSyntaxError(offset: offset, reason: "invalid UTF-8 in string")
  }
}
