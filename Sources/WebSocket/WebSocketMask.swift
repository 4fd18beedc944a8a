/// The XOR masking of client frames (RFC 6455 section 5.3).
enum WebSocketMask {
  /// XORs `bytes` with the 4-byte `key` (as it appeared on the wire, in memory order),
  /// starting `offset` bytes into the frame's payload so a payload can be unmasked in pieces.
  static func apply(key: UInt32, offset: Int, to bytes: UnsafeMutableRawBufferPointer) {
    guard let base = bytes.baseAddress else { return }
    // Eight key bytes starting at the right phase: the pattern repeats every four bytes, so
    // every eight-byte word of the payload takes the same one.
    var pattern: UInt64 = 0
    withUnsafeBytes(of: key) { keyBytes in
      withUnsafeMutableBytes(of: &pattern) { patternBytes in
        for index in 0..<8 { patternBytes[index] = keyBytes[(offset + index) & 3] }
      }
    }
    let count = bytes.count
    var index = 0
    while index + 8 <= count {
      let word = base.loadUnaligned(fromByteOffset: index, as: UInt64.self)
      base.storeBytes(of: word ^ pattern, toByteOffset: index, as: UInt64.self)
      index += 8
    }
    withUnsafeBytes(of: pattern) { patternBytes in
      while index < count {
        bytes[index] ^= patternBytes[index & 7]
        index += 1
      }
    }
  }

  /// Appends `bytes` to `output` and unmasks the appended part in place.
  static func append(
    _ bytes: UnsafeRawBufferPointer, key: UInt32, offset: Int, to output: inout [UInt8]
  ) {
    let start = output.count
    output.append(contentsOf: bytes)
    output.withUnsafeMutableBytes { buffer in
      apply(key: key, offset: offset, to: UnsafeMutableRawBufferPointer(rebasing: buffer[start...]))
    }
  }
}
