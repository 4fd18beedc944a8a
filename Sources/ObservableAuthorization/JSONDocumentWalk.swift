import ObservableWire

/// The authorization file's JSON, walked one object or array at a time with
/// ObservableWire's scanner, keeping byte offsets so that every error can name its line.
struct JSONDocumentWalk {
  /// One member of an object: its key and where its value lies in the whole file.
  struct Member {
    let key: String
    let value: Range<Int>
    let kind: JSONValueKind
  }

  let bytes: [UInt8]
  /// Where each line break is, in order, found once: the walk asks for the line of every key
  /// and element, and counting from the start each time made a file of 1,000 users with 10
  /// rules each take seconds to load (and minutes in a debug build).
  private let lineBreaks: [Int]

  init(bytes: [UInt8]) {
    self.bytes = bytes
    lineBreaks = bytes.indices.filter { bytes[$0] == UInt8(ascii: "\n") }
  }

  /// The line (from 1) that the byte at `offset` is on: one more than the line breaks before it.
  func line(at offset: Int) -> Int {
    var low = 0
    var high = lineBreaks.count
    while low < high {
      let middle = (low + high) / 2
      if lineBreaks[middle] < offset { low = middle + 1 } else { high = middle }
    }
    return low + 1
  }

  /// The whole file's range, after checking that it is one JSON object.
  func root() throws(AuthorizationFileError) -> Range<Int> {
    let outcome = bytes.withUnsafeBytes { buffer in
      Result { () throws(JSONSyntaxError) in try JSONScanner.scanValue(buffer) }
    }
    let scanned: (range: Range<Int>, kind: JSONValueKind)
    switch outcome {
    case .success(let value): scanned = value
    case .failure(let error):
      throw AuthorizationFileError(line: line(at: error.offset), "JSON: \(error.reason)")
    }
    guard scanned.kind == .object else {
      throw AuthorizationFileError(line: line(at: scanned.range.lowerBound), "expected an object")
    }
    return scanned.range
  }

  /// The members of the object at `range` (valid JSON already), duplicates included.
  func members(of range: Range<Int>) -> [Member] {
    bytes.withUnsafeBytes { buffer in
      let inner = UnsafeRawBufferPointer(rebasing: buffer[range])
      // The range was validated with the whole file, so it scans again without error.
      let found = (try? JSONScanner.scanObject(inner)) ?? nil
      return (found ?? []).map {
        Member(
          key: $0.key,
          value: $0.value.lowerBound + range.lowerBound..<$0.value.upperBound
            + range.lowerBound, kind: $0.kind)
      }
    }
  }

  /// The string at `range` (quotes included), decoded.
  func string(at range: Range<Int>) -> String {
    bytes.withUnsafeBytes { JSONScanner.decodeString($0, range) }
  }

  /// The elements of the array at `range` (valid JSON already): each element's range.
  func elements(of range: Range<Int>) -> [Range<Int>] {
    var ranges: [Range<Int>] = []
    var index = range.lowerBound + 1
    var depth = 0
    var inString = false
    var start: Int?
    while index < range.upperBound - 1 {
      let byte = bytes[index]
      if inString {
        if byte == UInt8(ascii: "\\") {
          index += 1
        } else if byte == UInt8(ascii: "\"") {
          inString = false
        }
      } else {
        switch byte {
        case UInt8(ascii: "\""):
          inString = true
          if start == nil { start = index }
        case UInt8(ascii: "["), UInt8(ascii: "{"):
          depth += 1
          if start == nil { start = index }
        case UInt8(ascii: "]"), UInt8(ascii: "}"): depth -= 1
        case UInt8(ascii: ","):
          if depth == 0, let first = start {
            ranges.append(first..<trimmedEnd(index))
            start = nil
          }
        case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"): break
        default: if start == nil { start = index }
        }
      }
      index += 1
    }
    if let first = start { ranges.append(first..<trimmedEnd(range.upperBound - 1)) }
    return ranges
  }

  /// `end` moved back over whitespace.
  private func trimmedEnd(_ end: Int) -> Int {
    var end = end
    while end > 0, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[end - 1]) { end -= 1 }
    return end
  }
}
