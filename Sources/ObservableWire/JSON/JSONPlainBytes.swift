/// Word-at-a-time search for the bytes that end a run of "plain" string content.
///
/// Request lines are dominated by string payloads, so both the scanner and the encoder spend most
/// of their time asking "where is the next byte that needs attention?". Testing eight bytes per
/// step with SWAR bit tricks keeps that question cheap without platform intrinsics.
package enum JSONPlainBytes {
  private static let ones: UInt64 = 0x0101_0101_0101_0101
  private static let highBits: UInt64 = 0x8080_8080_8080_8080

  /// Returns the first offset in `start..<end` holding `"`, `\`, a control byte (< 0x20) or, when
  /// `stopAtNonASCII` is set, a byte >= 0x80; returns `end` if there is none.
  ///
  /// The scanner stops at non-ASCII because it must validate UTF-8 there; the encoder passes
  /// non-ASCII through untouched and so does not.
  @inline(__always)
  static func specialByteOffset(
    in base: UnsafeRawPointer, from start: Int, to end: Int, stopAtNonASCII: Bool
  ) -> Int {
    var offset = start
    while offset &+ 8 <= end {
      let word = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
      // Each term flags its lowest matching byte exactly; borrows can only add false flags above
      // a true one, so the lowest flag overall is always a genuine match.
      let quote = word ^ (ones &* 0x22)
      let backslash = word ^ (ones &* 0x5C)
      var flags = (quote &- ones) & ~quote
      flags |= (backslash &- ones) & ~backslash
      flags |= (word &- ones &* 0x20) & ~word
      if stopAtNonASCII { flags |= word }
      flags &= highBits
      if flags != 0 { return offset &+ (flags.trailingZeroBitCount &>> 3) }
      offset &+= 8
    }
    while offset < end {
      let byte = base.load(fromByteOffset: offset, as: UInt8.self)
      if byte == 0x22 || byte == 0x5C || byte < 0x20 || (stopAtNonASCII && byte >= 0x80) {
        return offset
      }
      offset &+= 1
    }
    return end
  }

  /// Returns the first offset of a backslash in `start..<end`, or `end` if there is none.
  ///
  /// Decoding uses this to take the copy-only path for the common escape-free string.
  @inline(__always)
  static func backslashOffset(in base: UnsafeRawPointer, from start: Int, to end: Int) -> Int {
    var offset = start
    while offset &+ 8 <= end {
      let word = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
      let backslash = word ^ (ones &* 0x5C)
      let flags = (backslash &- ones) & ~backslash & highBits
      if flags != 0 { return offset &+ (flags.trailingZeroBitCount &>> 3) }
      offset &+= 8
    }
    while offset < end {
      if base.load(fromByteOffset: offset, as: UInt8.self) == 0x5C { return offset }
      offset &+= 1
    }
    return end
  }
}
