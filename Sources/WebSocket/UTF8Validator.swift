/// Checks UTF-8 as it arrives in pieces, a code point may be split anywhere between them
/// (Unicode's table 3-7 of well-formed sequences: no overlong forms, no surrogates,
/// nothing past U+10FFFF).
public struct UTF8Validator: Sendable, Hashable {
  /// Continuation bytes still expected for the code point in progress.
  private var needed: UInt8 = 0
  /// The range allowed for the next continuation byte; only the first one after a lead
  /// byte is narrower than 80...BF.
  private var lower: UInt8 = 0x80
  private var upper: UInt8 = 0xBF

  /// A validator at the start of a text.
  public init() {}

  /// Whether the bytes so far end on a code point boundary, as a whole text must.
  public var isAtBoundary: Bool { needed == 0 }

  /// Checks the next piece; false as soon as a byte cannot continue well-formed UTF-8.
  public mutating func validate(_ bytes: UnsafeRawBufferPointer) -> Bool {
    guard let base = bytes.baseAddress else { return true }
    let count = bytes.count
    var index = 0
    while index < count {
      if needed == 0 {
        // Text on this protocol is mostly ASCII: skip it eight bytes at a time.
        while index + 8 <= count
          && base.loadUnaligned(fromByteOffset: index, as: UInt64.self) & 0x8080_8080_8080_8080
            == 0
        {
          index += 8
        }
        guard index < count else { return true }
        let byte = bytes[index]
        index += 1
        if byte < 0x80 { continue }
        guard start(byte) else { return false }
      } else {
        let byte = bytes[index]
        index += 1
        guard byte >= lower && byte <= upper else { return false }
        needed -= 1
        lower = 0x80
        upper = 0xBF
      }
    }
    return true
  }

  /// Checks the next piece.
  public mutating func validate(_ bytes: some Collection<UInt8>) -> Bool {
    let array = Array(bytes)
    return array.withUnsafeBytes { validate($0) }
  }

  /// Takes a lead byte: how many continuation bytes follow and what the first may be.
  private mutating func start(_ byte: UInt8) -> Bool {
    switch byte {
    case 0xC2...0xDF: (needed, lower, upper) = (1, 0x80, 0xBF)
    case 0xE0: (needed, lower, upper) = (2, 0xA0, 0xBF)  // no overlong three-byte forms
    case 0xE1...0xEC, 0xEE...0xEF: (needed, lower, upper) = (2, 0x80, 0xBF)
    case 0xED: (needed, lower, upper) = (2, 0x80, 0x9F)  // no surrogates
    case 0xF0: (needed, lower, upper) = (3, 0x90, 0xBF)  // no overlong four-byte forms
    case 0xF1...0xF3: (needed, lower, upper) = (3, 0x80, 0xBF)
    case 0xF4: (needed, lower, upper) = (3, 0x80, 0x8F)  // nothing past U+10FFFF
    default: return false  // a continuation byte, C0, C1 or F5...FF
    }
    return true
  }
}
