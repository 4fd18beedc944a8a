import Foundation

/// Numbers as the table shows them.
enum Format {
  /// `1.23 M`, `456.7 k` or `89`.
  static func rate(_ value: Double) -> String {
    switch value {
    case 1e6...: String(format: "%.2f M", value / 1e6)
    case 1e3...: String(format: "%.1f k", value / 1e3)
    default: String(format: "%.0f", value)
    }
  }

  /// `123,456`.
  static func grouped(_ value: Int) -> String {
    let digits = String(value.magnitude)
    var out = ""
    for (index, digit) in digits.enumerated() {
      if index > 0, (digits.count - index) % 3 == 0 { out.append(",") }
      out.append(digit)
    }
    return value < 0 ? "-" + out : out
  }

  /// Two decimals below 10, one below 100, none above: three significant figures or so.
  static func decimal(_ value: Double) -> String {
    switch abs(value) {
    case ..<10: String(format: "%.2f", value)
    case ..<100: String(format: "%.1f", value)
    default: String(format: "%.0f", value)
    }
  }

  /// Microseconds: whole above 10, one decimal below.
  static func microseconds(_ value: Double) -> String {
    value < 10 ? String(format: "%.1f µs", value) : String(format: "%.0f µs", value)
  }

  /// `6.1 KiB`, `1.2 MiB` or `812 B`.
  static func bytes(_ value: Double) -> String {
    switch abs(value) {
    case 1_048_576.0...: String(format: "%.1f MiB", value / 1_048_576)
    case 1024.0...: String(format: "%.1f KiB", value / 1024)
    default: String(format: "%.0f B", value)
    }
  }

  /// Three decimals at most, so JSON shows measurements rather than float noise.
  static func rounded(_ value: Double) -> Double {
    (value * 1000).rounded() / 1000
  }
}
