extension UnsafeRawBufferPointer {
  /// Whether the bytes from `offset` on begin with `literal`'s bytes.
  ///
  /// One `memcmp`: the generic `starts(with:)` compares element by element, which showed up on
  /// the publish path.
  @inlinable
  package func hasPrefix(_ literal: StaticString, at offset: Int = 0) -> Bool {
    let length = literal.utf8CodeUnitCount
    guard offset >= 0, count - offset >= length else { return false }
    guard length > 0 else { return true }
    return (baseAddress! + offset).bytesEqual(literal.utf8Start, count: length)
  }
}

extension UnsafeRawPointer {
  /// Whether the `count` bytes here equal those at `other`.
  ///
  /// Eight bytes at a time, inline: the request prefixes and names compared on the publish
  /// path are 5 to 30 bytes, where a call to `memcmp` cost more than the comparing.
  @inlinable @inline(__always)
  package func bytesEqual(_ other: UnsafeRawPointer, count: Int) -> Bool {
    guard count >= 8 else {
      for index in 0..<count
      where load(fromByteOffset: index, as: UInt8.self)
        != other.load(fromByteOffset: index, as: UInt8.self)
      {
        return false
      }
      return true
    }
    var index = 0
    while index < count - 8 {
      guard word(at: index) == other.word(at: index) else { return false }
      index += 8
    }
    // The last word may overlap the one before; comparing bytes twice is harmless.
    return word(at: count - 8) == other.word(at: count - 8)
  }

  @usableFromInline @inline(__always)
  func word(at offset: Int) -> UInt64 {
    loadUnaligned(fromByteOffset: offset, as: UInt64.self)
  }
}
