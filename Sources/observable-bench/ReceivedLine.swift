import Glibc

extension UnsafeRawBufferPointer {
  /// Whether the bytes start with `prefix`; the hot loops' way of recognising a line's shape.
  @inline(__always)
  func hasPrefix(_ prefix: [UInt8]) -> Bool {
    guard count >= prefix.count else { return false }
    return prefix.withUnsafeBytes { memcmp(baseAddress!, $0.baseAddress!, prefix.count) == 0 }
  }

  /// Whether `needle` occurs anywhere; for lines off the hot path (greetings, errors, stats).
  func contains(_ needle: String) -> Bool {
    range(of: needle) != nil
  }

  /// The offset just past the first occurrence of `needle`.
  func range(of needle: String) -> Range<Int>? {
    let pattern = Array(needle.utf8)
    guard !pattern.isEmpty, count >= pattern.count else { return nil }
    for start in 0...(count - pattern.count) where self[start] == pattern[0] {
      if self[start..<start + pattern.count].elementsEqual(pattern) {
        return start..<start + pattern.count
      }
    }
    return nil
  }

  /// The non-negative integer that follows `"name":`, as in the `stats` stream's values.
  func integer(after name: String) -> Int? {
    guard let found = range(of: "\"\(name)\":") else { return nil }
    var value = 0
    var index = found.upperBound
    while index < count, self[index] >= 0x30, self[index] <= 0x39 {
      value = value * 10 + Int(self[index] - 0x30)
      index += 1
    }
    return index > found.upperBound ? value : nil
  }

  /// The line as text, shortened, for error messages.
  var text: String {
    let shown = String(decoding: prefix(300), as: UTF8.self)
    return count > 300 ? shown + "…" : shown
  }
}
