/// Finds the bytes of one member's value in a JSON object line without decoding them.
///
/// The client hands a delivery's value on as the bytes that arrived, so that
/// ``ObservableClient/stream(_:as:)`` decodes them once, into the caller's type, and printing
/// shows exactly what the server sent. Assumes the line has already been checked to be valid
/// JSON (``ServerLine`` decodes it first); it only tracks strings and nesting.
enum RawJSONMember {
  /// The bytes of the top-level member named `key` (a plain key without escapes), or `nil`.
  static func value(named key: String, in line: ArraySlice<UInt8>) -> ArraySlice<UInt8>? {
    let wanted = Array(key.utf8)
    var index = line.startIndex
    skipSpace(line, &index)
    guard index < line.endIndex, line[index] == UInt8(ascii: "{") else { return nil }
    index += 1
    while index < line.endIndex {
      skipSpace(line, &index)
      guard index < line.endIndex, line[index] == UInt8(ascii: "\"") else { return nil }
      let keyStart = index + 1
      skipString(line, &index)
      let name = line[keyStart..<(index - 1)]
      skipSpace(line, &index)
      guard index < line.endIndex, line[index] == UInt8(ascii: ":") else { return nil }
      index += 1
      skipSpace(line, &index)
      let valueStart = index
      skipValue(line, &index)
      var valueEnd = index
      while valueEnd > valueStart, isSpace(line[valueEnd - 1]) { valueEnd -= 1 }
      if name.elementsEqual(wanted) { return line[valueStart..<valueEnd] }
      guard index < line.endIndex, line[index] == UInt8(ascii: ",") else { return nil }
      index += 1
    }
    return nil
  }

  private static func isSpace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
  }

  private static func skipSpace(_ line: ArraySlice<UInt8>, _ index: inout Int) {
    while index < line.endIndex, isSpace(line[index]) { index += 1 }
  }

  /// From an opening quote to just past the closing one.
  private static func skipString(_ line: ArraySlice<UInt8>, _ index: inout Int) {
    index += 1
    while index < line.endIndex {
      let byte = line[index]
      index += 1
      if byte == UInt8(ascii: "\\") {
        index += 1
      } else if byte == UInt8(ascii: "\"") {
        return
      }
    }
  }

  /// To the `,` or `}` that ends the member at depth zero.
  private static func skipValue(_ line: ArraySlice<UInt8>, _ index: inout Int) {
    var depth = 0
    while index < line.endIndex {
      switch line[index] {
      case UInt8(ascii: "\""):
        skipString(line, &index)
        continue
      case UInt8(ascii: "{"), UInt8(ascii: "["):
        depth += 1
      case UInt8(ascii: "}"), UInt8(ascii: "]"):
        if depth == 0 { return }
        depth -= 1
      case UInt8(ascii: ","):
        if depth == 0 { return }
      default:
        break
      }
      index += 1
    }
  }
}
