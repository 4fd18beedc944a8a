extension JSONReader {
  /// Steps over the four structural whitespace bytes RFC 8259 allows, and nothing else: form feed,
  /// NBSP and the like are errors so that every peer agrees on where a value starts.
  @inline(__always)
  mutating func skipWhitespace() {
    while index < end {
      switch byte(at: index) {
      case 0x20, 0x0A, 0x0D, 0x09: index &+= 1
      default: return
      }
    }
  }

  /// Validates `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?` at `index` and steps past it.
  ///
  /// A digit directly after a leading `0` is reported here rather than as a stray character later,
  /// because "leading zero" is the message that helps a client fix its encoder.
  mutating func scanNumber() throws(JSONSyntaxError) {
    var offset = index
    if byte(at: offset) == UInt8(ascii: "-") { offset &+= 1 }
    guard offset < end, isDigit(byte(at: offset)) else {
      throw JSONSyntaxError(offset: offset, reason: "expected digit in number")
    }
    if byte(at: offset) == UInt8(ascii: "0") {
      offset &+= 1
      if offset < end && isDigit(byte(at: offset)) {
        throw JSONSyntaxError(offset: offset &- 1, reason: "leading zero in number")
      }
    } else {
      offset = digitsEnd(from: offset)
    }
    if offset < end && byte(at: offset) == UInt8(ascii: ".") {
      offset &+= 1
      guard offset < end, isDigit(byte(at: offset)) else {
        throw JSONSyntaxError(offset: offset, reason: "expected digit after decimal point")
      }
      offset = digitsEnd(from: offset)
    }
    if offset < end && (byte(at: offset) | 0x20) == UInt8(ascii: "e") {
      offset &+= 1
      if offset < end
        && (byte(at: offset) == UInt8(ascii: "+") || byte(at: offset) == UInt8(ascii: "-"))
      {
        offset &+= 1
      }
      guard offset < end, isDigit(byte(at: offset)) else {
        throw JSONSyntaxError(offset: offset, reason: "expected digit in exponent")
      }
      offset = digitsEnd(from: offset)
    }
    index = offset
  }

  /// Validates `true`, `false` or `null` at `index` (chosen by its first byte) and steps past it.
  mutating func scanLiteral() throws(JSONSyntaxError) {
    let literal: StaticString
    switch byte(at: index) {
    case UInt8(ascii: "t"): literal = "true"
    case UInt8(ascii: "f"): literal = "false"
    default: literal = "null"
    }
    let length = literal.utf8CodeUnitCount
    guard index &+ length <= end else {
      throw JSONSyntaxError(offset: index, reason: "invalid literal")
    }
    let expected = literal.utf8Start
    for position in 1..<length where byte(at: index &+ position) != expected[position] {
      throw JSONSyntaxError(offset: index, reason: "invalid literal")
    }
    index &+= length
  }

  @inline(__always)
  private func isDigit(_ byte: UInt8) -> Bool {
    byte &- UInt8(ascii: "0") < 10
  }

  @inline(__always)
  private func digitsEnd(from start: Int) -> Int {
    var offset = start
    while offset < end && isDigit(byte(at: offset)) { offset &+= 1 }
    return offset
  }
}
