/// Copies string content into a `String`'s storage while replacing escape sequences.
///
/// It relies on the invariant that decoding never produces more bytes than it consumes, which
/// lets ``JSONScanner/decodeContent(_:from:to:mayContainEscapes:)`` size the target exactly once.
package struct JSONStringUnescaper {
  /// The scanned buffer; offsets given to ``run(from:firstEscape:)`` are relative to it.
  package let source: UnsafeRawPointer
  /// Offset of the closing quote, where decoding stops.
  package let end: Int
  /// Storage of the `String` being created, at least as long as the content.
  package let target: UnsafeMutableBufferPointer<UInt8>
  /// Number of bytes of `target` initialized so far, which becomes the string's length.
  private(set) var written = 0

  /// Prepares to decode content of `source` ending at `end` into `target`.
  package init(source: UnsafeRawPointer, end: Int, target: UnsafeMutableBufferPointer<UInt8>) {
    self.source = source
    self.end = end
    self.target = target
  }

  /// Decodes `start..<end`, where `firstEscape` is the offset of the first backslash.
  package mutating func run(from start: Int, firstEscape: Int) {
    var offset = start
    var escape = firstEscape
    while true {
      copyRaw(from: offset, to: escape)
      guard escape < end else { return }
      offset = decodeEscape(at: escape)
      escape = JSONPlainBytes.backslashOffset(in: source, from: offset, to: end)
    }
  }

  private mutating func copyRaw(from start: Int, to stop: Int) {
    guard stop > start else { return }
    UnsafeMutableRawPointer(target.baseAddress! + written).copyMemory(
      from: source + start, byteCount: stop &- start)
    written &+= stop &- start
  }

  /// Decodes the escape whose backslash is at `offset` and returns the offset after it.
  private mutating func decodeEscape(at offset: Int) -> Int {
    guard offset &+ 1 < end else { return end }
    let letter = source.load(fromByteOffset: offset &+ 1, as: UInt8.self)
    let simple: UInt8
    switch letter {
    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): simple = letter
    case UInt8(ascii: "b"): simple = 0x08
    case UInt8(ascii: "f"): simple = 0x0C
    case UInt8(ascii: "n"): simple = 0x0A
    case UInt8(ascii: "r"): simple = 0x0D
    case UInt8(ascii: "t"): simple = 0x09
    case UInt8(ascii: "u"): return decodeUnicodeEscape(at: offset)
    default: return offset &+ 1
    }
    target[written] = simple
    written &+= 1
    return offset &+ 2
  }

  /// Decodes `\uXXXX`, pairing a high surrogate with an immediately following low surrogate.
  private mutating func decodeUnicodeEscape(at offset: Int) -> Int {
    guard let unit = codeUnit(at: offset) else { return offset &+ 2 }
    var scalar = unit
    var next = offset &+ 6
    switch unit {
    case 0xD800...0xDBFF:
      if let low = codeUnit(at: next), (0xDC00...0xDFFF).contains(low) {
        scalar = 0x10000 &+ ((unit &- 0xD800) &<< 10) &+ (low &- 0xDC00)
        next &+= 6
      } else {
        scalar = 0xFFFD
      }
    case 0xDC00...0xDFFF:
      scalar = 0xFFFD
    default:
      break
    }
    appendUTF8(scalar)
    return next
  }

  /// Reads the 16-bit value of a `\uXXXX` escape starting at `offset`, or `nil` if there is none.
  private func codeUnit(at offset: Int) -> UInt32? {
    guard offset &+ 6 <= end,
      source.load(fromByteOffset: offset, as: UInt8.self) == UInt8(ascii: "\\"),
      source.load(fromByteOffset: offset &+ 1, as: UInt8.self) == UInt8(ascii: "u")
    else { return nil }
    var value: UInt32 = 0
    for position in (offset &+ 2)..<(offset &+ 6) {
      guard let digit = JSONScanner.hexValue(source.load(fromByteOffset: position, as: UInt8.self))
      else { return nil }
      value = value &<< 4 | digit
    }
    return value
  }

  private mutating func appendUTF8(_ scalar: UInt32) {
    switch scalar {
    case 0..<0x80:
      append(UInt8(scalar))
    case 0x80..<0x800:
      append(UInt8(0xC0 | scalar &>> 6))
      append(UInt8(0x80 | scalar & 0x3F))
    case 0x800..<0x10000:
      append(UInt8(0xE0 | scalar &>> 12))
      append(UInt8(0x80 | scalar &>> 6 & 0x3F))
      append(UInt8(0x80 | scalar & 0x3F))
    default:
      append(UInt8(0xF0 | scalar &>> 18))
      append(UInt8(0x80 | scalar &>> 12 & 0x3F))
      append(UInt8(0x80 | scalar &>> 6 & 0x3F))
      append(UInt8(0x80 | scalar & 0x3F))
    }
  }

  @inline(__always)
  private mutating func append(_ byte: UInt8) {
    target[written] = byte
    written &+= 1
  }
}
