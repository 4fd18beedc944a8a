/// Where a value stands in the server's history: the server's epoch and the value's sequence
/// number, written `EPOCH-SEQUENCE` (eight hex digits, a dash, a decimal number).
///
/// One sequence counts every value published on the server, whatever its topic, so positions
/// order values across topics and one position can resume a pattern. The epoch tells one run
/// of the history from another: a position from another epoch says nothing about this one.
/// Clients treat the string as opaque; only the server reads it.
package struct StreamPosition: Equatable, Sendable {
  package let epoch: UInt32
  package let sequence: UInt64

  package init(epoch: UInt32, sequence: UInt64) {
    self.epoch = epoch
    self.sequence = sequence
  }

  /// The position `text` spells, or `nil` when it is not one the server could have written.
  package init?(parsing text: String) {
    let utf8 = Array(text.utf8)
    guard utf8.count >= 10, utf8.count <= 29, utf8[8] == UInt8(ascii: "-") else { return nil }
    var epoch: UInt32 = 0
    for byte in utf8[0..<8] {
      guard let digit = Self.hexValue(byte) else { return nil }
      epoch = epoch << 4 | UInt32(digit)
    }
    var sequence: UInt64 = 0
    for byte in utf8[9...] {
      guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
      let (times, overflowTimes) = sequence.multipliedReportingOverflow(by: 10)
      let (sum, overflowSum) = times.addingReportingOverflow(UInt64(byte - UInt8(ascii: "0")))
      guard !overflowTimes, !overflowSum else { return nil }
      sequence = sum
    }
    self.init(epoch: epoch, sequence: sequence)
  }

  /// Appends the position's text, without quotes.
  package func append(to out: inout [UInt8]) {
    for shift in stride(from: 28, through: 0, by: -4) {
      out.append(Self.hexDigits[Int((epoch >> UInt32(shift)) & 0xF)])
    }
    out.append(UInt8(ascii: "-"))
    var digits: [UInt8] = []
    var rest = sequence
    repeat {
      digits.append(UInt8(ascii: "0") + UInt8(rest % 10))
      rest /= 10
    } while rest > 0
    out.append(contentsOf: digits.reversed())
  }

  /// The position's text.
  package var text: String {
    var out: [UInt8] = []
    append(to: &out)
    return String(decoding: out, as: UTF8.self)
  }

  private static let hexDigits = Array("0123456789abcdef".utf8)

  private static func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
    default: nil
    }
  }
}
