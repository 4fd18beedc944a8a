/// Reading a control line's fields in place, out of the bytes received.
extension NATSProtocolParser {
  /// The next run of non-blank bytes at or after `cursor`, moving the cursor past it.
  func field(_ cursor: inout Int, _ end: Int) -> Range<Int>? {
    while cursor < end && (buffer[cursor] == space || buffer[cursor] == tab) { cursor += 1 }
    guard cursor < end else { return nil }
    let start = cursor
    while cursor < end && buffer[cursor] != space && buffer[cursor] != tab { cursor += 1 }
    return start..<cursor
  }

  /// Whether the bytes in `range` are `lowercase`, ignoring the case of ASCII letters.
  func matches(_ range: Range<Int>, _ lowercase: StaticString) -> Bool {
    guard range.count == lowercase.utf8CodeUnitCount else { return false }
    let expected = UnsafeBufferPointer(start: lowercase.utf8Start, count: range.count)
    for (offset, byte) in expected.enumerated()
    where buffer[range.lowerBound + offset] | 0x20 != byte {
      return false
    }
    return true
  }

  /// A decimal number of at most 15 digits, which no size or sid exceeds.
  func number(_ range: Range<Int>) -> UInt64? {
    guard range.count <= 15 else { return nil }
    var value: UInt64 = 0
    for index in range {
      let digit = buffer[index] &- UInt8(ascii: "0")
      guard digit < 10 else { return nil }
      value = value * 10 + UInt64(digit)
    }
    return value
  }

  /// The bytes in `range` as text.
  func text(_ range: Range<Int>) -> String {
    String(decoding: buffer[range], as: UTF8.self)
  }
}

private let space = UInt8(ascii: " ")
private let tab = UInt8(ascii: "\t")
