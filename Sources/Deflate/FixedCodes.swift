/// Deflate's fixed Huffman codes (RFC 1951 section 3.2.6), bit-reversed for a writer that
/// fills bytes from their least significant bit, as deflate's bit stream does.
enum FixedCodes {
  /// The code of each literal/length symbol, 0...287: the reversed code in the low 16 bits,
  /// its length in bits above them.
  static let literals: [UInt32] = (0..<288).map { symbol in
    let (first, firstSymbol, length): (Int, Int, Int) =
      switch symbol {
      case 0..<144: (0b0011_0000, 0, 8)
      case 144..<256: (0b1_1001_0000, 144, 9)
      case 256..<280: (0, 256, 7)
      default: (0b1100_0000, 280, 8)
      }
    return UInt32(reversed(first + symbol - firstSymbol, length)) | UInt32(length) << 16
  }

  /// The code of a distance symbol, 0...29: its five bits reversed.
  static func distance(_ symbol: Int) -> UInt32 { UInt32(reversed(symbol, 5)) }

  /// The lowest `length` bits of `code`, most significant first, turned around.
  private static func reversed(_ code: Int, _ length: Int) -> Int {
    var result = 0
    for bit in 0..<length where code & (1 << bit) != 0 {
      result |= 1 << (length - 1 - bit)
    }
    return result
  }
}

/// Deflate's bit stream into a caller's buffer: values go in least significant bit first and
/// fill each byte from its least significant bit.
struct BitWriter {
  /// Where the bytes go; the caller gives room for all of them.
  private let buffer: UnsafeMutablePointer<UInt8>
  /// The literal/length codes (``FixedCodes/literals``).
  private let literals: UnsafeBufferPointer<UInt32>
  private var pending: UInt64 = 0
  private var pendingCount = 0
  /// How many bytes of `buffer` are written.
  private(set) var count = 0

  init(into buffer: UnsafeMutablePointer<UInt8>, literals: UnsafeBufferPointer<UInt32>) {
    self.buffer = buffer
    self.literals = literals
  }

  /// Writes the lowest `bits` bits of `value`, at most 32.
  mutating func write(_ value: UInt32, bits: Int) {
    pending |= UInt64(value) << UInt64(pendingCount)
    pendingCount += bits
    if pendingCount >= 32 {
      UnsafeMutableRawPointer(buffer + count).storeBytes(
        of: UInt32(truncatingIfNeeded: pending).littleEndian, as: UInt32.self)
      count += 4
      pending >>= 32
      pendingCount -= 32
    }
  }

  /// Writes literal/length symbol `symbol`.
  mutating func writeSymbol(_ symbol: Int) {
    let code = literals[symbol]
    write(code & 0xFFFF, bits: Int(code >> 16))
  }

  /// Writes a match of `length` (3...258) bytes `distance` (1...32768) back: its length
  /// symbol and extra bits, then its distance symbol and extra bits.
  mutating func writeMatch(length: Int, distance: Int) {
    let (symbol, lengthExtra, lengthExtraBits) = Self.lengthSymbol(length)
    writeSymbol(symbol)
    write(UInt32(lengthExtra), bits: lengthExtraBits)
    let (distanceSymbol, distanceExtra, distanceExtraBits) = Self.distanceSymbol(distance)
    write(FixedCodes.distance(distanceSymbol), bits: 5)
    write(UInt32(distanceExtra), bits: distanceExtraBits)
  }

  /// Writes the bits still pending, the last byte filled up with zero bits.
  mutating func finish() {
    while pendingCount > 0 {
      buffer[count] = UInt8(truncatingIfNeeded: pending)
      count += 1
      pending >>= 8
      pendingCount -= 8
    }
    pendingCount = 0
  }

  /// Lengths 3...10 have symbols 257...264; then each bit width has four symbols, their
  /// extra bits telling the lengths apart; 258 has 285 to itself.
  private static func lengthSymbol(_ length: Int) -> (symbol: Int, extra: Int, bits: Int) {
    if length == 258 { return (285, 0, 0) }
    let offset = length - 3
    if offset < 8 { return (257 + offset, 0, 0) }
    let top = Int.bitWidth - 1 - offset.leadingZeroBitCount
    let extraBits = top - 2
    return (
      257 + 4 * (top - 1) + ((offset >> extraBits) & 3), offset & ((1 << extraBits) - 1), extraBits
    )
  }

  /// Distances 1...4 have symbols 0...3; then each bit width has two symbols, told apart by
  /// the bit below the top one.
  private static func distanceSymbol(_ distance: Int) -> (symbol: Int, extra: Int, bits: Int) {
    let offset = distance - 1
    if offset < 4 { return (offset, 0, 0) }
    let top = Int.bitWidth - 1 - offset.leadingZeroBitCount
    let extraBits = top - 1
    return (2 * top + ((offset >> extraBits) & 1), offset & ((1 << extraBits) - 1), extraBits)
  }
}
