import Glibc

extension UnsafeRawBufferPointer {
  /// Whether the bytes from `offset` on begin with `literal`'s bytes.
  ///
  /// One `memcmp`: the generic `starts(with:)` compares element by element, which showed up on
  /// the publish path.
  func hasPrefix(_ literal: StaticString, at offset: Int = 0) -> Bool {
    let length = literal.utf8CodeUnitCount
    guard offset >= 0, count - offset >= length else { return false }
    guard length > 0 else { return true }
    return memcmp(baseAddress! + offset, literal.utf8Start, length) == 0
  }
}
