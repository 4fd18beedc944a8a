extension [UInt8] {
  /// Appends raw bytes with one `memcpy`.
  ///
  /// `append(contentsOf:)` of an `UnsafeRawBufferPointer` copies byte by byte (the raw buffer
  /// has no contiguous-copy fast path), which was the largest user-space entry of the publish
  /// path; a typed buffer of the same memory is copied at once.
  @inlinable @inline(__always)
  package mutating func append(bytes: UnsafeRawBufferPointer) {
    bytes.withMemoryRebound(to: UInt8.self) { append(contentsOf: $0) }
  }

  /// Appends another array's bytes without retaining it, as `append(contentsOf:)` would.
  @inlinable @inline(__always)
  package mutating func append(bytesOf other: borrowing [UInt8]) {
    other.withUnsafeBytes { append(bytes: $0) }
  }

  /// Appends a literal's bytes with one copy; appending a `String.UTF8View` walks it instead,
  /// which showed up on the publish path.
  @inlinable
  package mutating func append(literal: StaticString) {
    append(
      bytes: UnsafeRawBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
  }

  /// Appends a string's UTF-8 bytes with one copy.
  @inlinable
  package mutating func append(utf8 text: String) {
    var text = text
    text.withUTF8 { append(bytes: UnsafeRawBufferPointer($0)) }
  }

  /// Appends `value` in decimal without making a `String`.
  @inlinable
  package mutating func append(decimal value: Int) {
    if value < 0 { append(UInt8(ascii: "-")) }
    var magnitude = value.magnitude
    var digits: (UInt64, Int) = (0, 0)  // reversed digits packed 4 bits each, and their count
    repeat {
      digits.0 = digits.0 << 4 | UInt64(magnitude % 10)
      digits.1 += 1
      magnitude /= 10
    } while magnitude > 0 && digits.1 < 16
    if magnitude > 0 {
      // Too long for the packed form (more than 16 digits): rare enough for the slow way.
      append(contentsOf: String(value.magnitude).utf8)
      return
    }
    for _ in 0..<digits.1 {
      append(UInt8(ascii: "0") + UInt8(digits.0 & 0xF))
      digits.0 >>= 4
    }
  }

  /// `bytes` `times` over, in about log2(`times`) copies: the replies to a batch of publishes
  /// are one line repeated, and appending it once per publish cost about 90 instructions each.
  package init(repeating bytes: UnsafeRawBufferPointer, times: Int) {
    let total = bytes.count * times
    self.init(unsafeUninitializedCapacity: total) { buffer, initialized in
      guard total > 0, let source = bytes.baseAddress, let start = buffer.baseAddress else {
        return
      }
      let base = UnsafeMutableRawPointer(start)
      base.copyMemory(from: source, byteCount: bytes.count)
      var filled = bytes.count
      // Each round copies what is there already, doubling it, until the last copies the rest.
      while filled < total {
        let more = Swift.min(filled, total - filled)
        (base + filled).copyMemory(from: base, byteCount: more)
        filled += more
      }
      initialized = total
    }
  }

  /// The bytes in new storage of their size when this array's storage has much more room than
  /// they use, else the array itself: what an array held for long should be. A reused buffer
  /// (the loop's batch buffer grows to 64 KiB and keeps it) would otherwise be held whole by
  /// every outbox and history entry that shares it, for a few lines counted. `Array(self)`
  /// would share the storage.
  package var withoutSpareRoom: [UInt8] {
    guard capacity > 2 * count + 256 else { return self }
    return [UInt8](unsafeUninitializedCapacity: count) { target, initialized in
      initialized = target.initialize(from: self).1
    }
  }
}
