/// Writes keys and values the way logfmt parsers read them, so that every line splits into the
/// pairs it was made of whatever a value contains.
///
/// A value is quoted when it is empty or holds a space, `=`, `"`, `\` or a control character,
/// and inside quotes `"` and `\` are escaped and control characters written as `\n`, `\r`,
/// `\t` or `\u00XX`; anything else is written as it is, UTF-8 included. Values longer than
/// `maximumValueBytes` are cut (at a character boundary) and end in `…`, so that one runaway
/// value cannot make a line of unbounded size.
package enum LogfmtEncoding {
  /// The most UTF-8 bytes of one value kept before it is cut.
  static let maximumValueBytes = 4096

  /// Appends `key`, made safe as a logfmt key: anything but a letter, digit, `_`, `-`, `.` or
  /// `/` becomes `_`, because keys are never quoted.
  static func appendKey(_ key: String, to line: inout String) {
    if key.isEmpty {
      line += "_"
      return
    }
    for scalar in key.unicodeScalars.prefix(128) {
      line.unicodeScalars.append(isKeyScalar(scalar) ? scalar : "_")
    }
  }

  /// Appends `value`, quoted and escaped when a parser would otherwise misread it, or
  /// always when `quoted` is set.
  static func appendValue(_ value: String, quoted: Bool = false, to line: inout String) {
    let kept = truncated(value)
    guard quoted || needsQuotes(kept) else {
      line += kept
      return
    }
    line += "\""
    for scalar in kept.unicodeScalars {
      switch scalar {
      case "\"": line += "\\\""
      case "\\": line += "\\\\"
      case "\n": line += "\\n"
      case "\r": line += "\\r"
      case "\t": line += "\\t"
      default:
        if isControl(scalar) {
          line += "\\u" + hex4(scalar.value)
        } else {
          line.unicodeScalars.append(scalar)
        }
      }
    }
    line += "\""
  }

  /// Appends ` key=value`.
  static func appendPair(_ key: String, _ value: String, to line: inout String) {
    line += " "
    appendKey(key, to: &line)
    line += "="
    appendValue(value, to: &line)
  }

  private static func needsQuotes(_ value: String) -> Bool {
    value.isEmpty
      || value.unicodeScalars.contains { scalar in
        scalar == " " || scalar == "=" || scalar == "\"" || scalar == "\\" || isControl(scalar)
          || scalar.properties.isWhitespace
      }
  }

  /// C0, DEL, C1 and the line and paragraph separators, which some readers take as line ends.
  private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
    scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar.value == 0x2028
      || scalar.value == 0x2029
  }

  private static func isKeyScalar(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar {
    case "a"..."z", "A"..."Z", "0"..."9", "_", "-", ".", "/": true
    default: false
    }
  }

  private static func truncated(_ value: String) -> String {
    guard value.utf8.count > maximumValueBytes else { return value }
    var kept = ""
    var bytes = 0
    for character in value {
      bytes += character.utf8.count
      if bytes > maximumValueBytes { break }
      kept.append(character)
    }
    return kept + "…"
  }

  private static func hex4(_ value: UInt32) -> String {
    let digits = String(value, radix: 16)
    return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
  }
}
