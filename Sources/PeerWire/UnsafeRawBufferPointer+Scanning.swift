/// Small scans the decoders share, over bytes in place.
extension UnsafeRawBufferPointer {
  /// The bytes as text, for error messages; invalid UTF-8 is replaced.
  var text: String { String(decoding: self, as: UTF8.self) }

  /// The offset of the first `\r\n` at or after `start`, if there is one.
  func crlf(from start: Int) -> Int? {
    var index = start
    while index + 1 < count {
      if self[index] == 0x0D, self[index + 1] == 0x0A { return index }
      index += 1
    }
    return nil
  }

  /// The decimal number in `range`, or `nil` when it is empty or holds a non-digit.
  func decimal(_ range: Range<Int>) -> Int? {
    guard !range.isEmpty, range.count < 19 else { return nil }
    var value = 0
    for index in range {
      let digit = Int(self[index]) - 48
      guard digit >= 0, digit < 10 else { return nil }
      value = value * 10 + digit
    }
    return value
  }

  /// Whether the bytes in `range` are exactly `literal`.
  func matches(_ range: Range<Int>, _ literal: StaticString) -> Bool {
    guard range.count == literal.utf8CodeUnitCount else { return false }
    for offset in 0..<range.count where self[range.lowerBound + offset] != literal.utf8Start[offset]
    {
      return false
    }
    return true
  }
}
