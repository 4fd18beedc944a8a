/// A recursive-descent reader of JSON text into ``JSONValue``, strict to RFC 8259.
struct JSONReader {
  /// Deeper nesting than this is refused rather than risking the stack.
  static let maximumDepth = 256

  private let bytes: [UInt8]
  private var index = 0

  init(_ bytes: [UInt8]) {
    self.bytes = bytes
  }

  /// Whether only whitespace is left.
  var atEnd: Bool {
    mutating get {
      skipSpace()
      return index == bytes.count
    }
  }

  /// The next value, or `nil` when the text there is not JSON.
  mutating func value(depth: Int) -> JSONValue? {
    guard depth < Self.maximumDepth else { return nil }
    skipSpace()
    guard let byte = peek() else { return nil }
    switch byte {
    case UInt8(ascii: "{"): return object(depth: depth)
    case UInt8(ascii: "["): return array(depth: depth)
    case UInt8(ascii: "\""): return string().map(JSONValue.string)
    case UInt8(ascii: "t"): return literal("true", .bool(true))
    case UInt8(ascii: "f"): return literal("false", .bool(false))
    case UInt8(ascii: "n"): return literal("null", .null)
    default: return number()
    }
  }

  private mutating func object(depth: Int) -> JSONValue? {
    index += 1
    var members: [JSONValue.Member] = []
    skipSpace()
    if take(UInt8(ascii: "}")) { return .object(members) }
    repeat {
      skipSpace()
      guard peek() == UInt8(ascii: "\""), let key = string() else { return nil }
      skipSpace()
      guard take(UInt8(ascii: ":")), let value = value(depth: depth + 1) else { return nil }
      members.append(JSONValue.Member(key: key, value: value))
      skipSpace()
    } while take(UInt8(ascii: ","))
    return take(UInt8(ascii: "}")) ? .object(members) : nil
  }

  private mutating func array(depth: Int) -> JSONValue? {
    index += 1
    var elements: [JSONValue] = []
    skipSpace()
    if take(UInt8(ascii: "]")) { return .array(elements) }
    repeat {
      guard let element = value(depth: depth + 1) else { return nil }
      elements.append(element)
      skipSpace()
    } while take(UInt8(ascii: ","))
    return take(UInt8(ascii: "]")) ? .array(elements) : nil
  }

  /// A string from its opening quote, escapes decoded; `nil` for a bad escape, a raw control
  /// character, a lone surrogate or no closing quote.
  private mutating func string() -> String? {
    index += 1
    var scalars = String.UnicodeScalarView()
    var run = index
    while let byte = peek() {
      if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 {
        guard let text = String(validating: bytes[run..<index], as: UTF8.self) else { return nil }
        scalars.append(contentsOf: text.unicodeScalars)
        guard byte != UInt8(ascii: "\"") else {
          index += 1
          return String(scalars)
        }
        guard byte == UInt8(ascii: "\\"), let scalar = escape() else { return nil }
        scalars.append(scalar)
        run = index
      } else {
        index += 1
      }
    }
    return nil
  }

  /// The character an escape stands for, from its backslash.
  private mutating func escape() -> Unicode.Scalar? {
    index += 1
    guard let byte = peek() else { return nil }
    index += 1
    switch byte {
    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): return Unicode.Scalar(byte)
    case UInt8(ascii: "b"): return "\u{08}"
    case UInt8(ascii: "f"): return "\u{0C}"
    case UInt8(ascii: "n"): return "\n"
    case UInt8(ascii: "r"): return "\r"
    case UInt8(ascii: "t"): return "\t"
    case UInt8(ascii: "u"):
      guard let unit = hex4() else { return nil }
      guard (0xD800..<0xDC00).contains(unit) else { return Unicode.Scalar(unit) }
      // A high surrogate must be followed by an escaped low one.
      guard take(UInt8(ascii: "\\")), take(UInt8(ascii: "u")), let low = hex4(),
        (0xDC00..<0xE000).contains(low)
      else { return nil }
      return Unicode.Scalar(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00))
    default: return nil
    }
  }

  /// Four hex digits as a number.
  private mutating func hex4() -> UInt32? {
    guard index + 4 <= bytes.count,
      let unit = UInt32(String(decoding: bytes[index..<(index + 4)], as: UTF8.self), radix: 16)
    else { return nil }
    index += 4
    return unit
  }

  /// `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`, kept as its text.
  private mutating func number() -> JSONValue? {
    let start = index
    _ = take(UInt8(ascii: "-"))
    if take(UInt8(ascii: "0")) {
      // No leading zeros: `01` is not JSON.
    } else if digits() == 0 {
      return nil
    }
    if take(UInt8(ascii: ".")), digits() == 0 { return nil }
    if take(UInt8(ascii: "e")) || take(UInt8(ascii: "E")) {
      if !take(UInt8(ascii: "+")) { _ = take(UInt8(ascii: "-")) }
      if digits() == 0 { return nil }
    }
    return .number(String(decoding: bytes[start..<index], as: UTF8.self))
  }

  /// Skips decimal digits; how many there were.
  private mutating func digits() -> Int {
    let start = index
    while let byte = peek(), byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") { index += 1 }
    return index - start
  }

  private mutating func literal(_ word: String, _ value: JSONValue) -> JSONValue? {
    let expected = Array(word.utf8)
    guard bytes.count - index >= expected.count,
      bytes[index..<(index + expected.count)].elementsEqual(expected)
    else { return nil }
    index += expected.count
    return value
  }

  private func peek() -> UInt8? {
    index < bytes.count ? bytes[index] : nil
  }

  /// Consumes `byte` when it comes next.
  private mutating func take(_ byte: UInt8) -> Bool {
    guard peek() == byte else { return false }
    index += 1
    return true
  }

  private mutating func skipSpace() {
    while let byte = peek(), byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D {
      index += 1
    }
  }
}
