/// Reads and writes the header block of `HMSG` and `HPUB`:
/// `NATS/1.0[ status[ description]]\r\n(Name: Value\r\n)*\r\n`.
enum NATSHeaderBlockReader {
  private static let version = Array("NATS/1.0".utf8)

  /// Parses a whole block, as announced by an HMSG's header size.
  static func read(_ bytes: ArraySlice<UInt8>) throws(NATSProtocolError) -> NATSHeaders {
    guard bytes.starts(with: version) else { throw .malformedHeaders("no NATS/1.0 version line") }
    guard bytes.count >= version.count + 4, bytes.suffix(4).elementsEqual(crlfcrlf) else {
      throw .malformedHeaders("block does not end with an empty line")
    }
    var lines = lineRanges(bytes.dropLast(2))
    let statusLine = lines.removeFirst()
    var headers = try status(bytes[statusLine].dropFirst(version.count))
    for line in lines {
      let field = bytes[line]
      guard let colon = field.firstIndex(of: UInt8(ascii: ":")), colon > field.startIndex else {
        throw .malformedHeaders("a field has no name")
      }
      let name = String(decoding: field[..<colon], as: UTF8.self)
      let value = String(decoding: field[(colon + 1)...], as: UTF8.self).trimmingBlanks()
      headers.append(name: name, value: value)
    }
    return headers
  }

  /// The ranges of the CRLF-terminated lines of `bytes`, without their CRLF.
  private static func lineRanges(_ bytes: ArraySlice<UInt8>) -> [Range<Int>] {
    var ranges: [Range<Int>] = []
    var start = bytes.startIndex
    var index = bytes.startIndex
    while index + 1 < bytes.endIndex {
      if bytes[index] == 13 && bytes[index + 1] == 10 {
        ranges.append(start..<index)
        index += 2
        start = index
      } else {
        index += 1
      }
    }
    return ranges
  }

  /// The status code and description after `NATS/1.0`.
  private static func status(_ rest: ArraySlice<UInt8>) throws(NATSProtocolError) -> NATSHeaders {
    let text = String(decoding: rest, as: UTF8.self).trimmingBlanks()
    guard !text.isEmpty else { return NATSHeaders() }
    let code = text.prefix { $0 != " " && $0 != "\t" }
    guard code.count == 3, let status = Int(code) else {
      throw .malformedHeaders("status '\(code)' is not a three-digit code")
    }
    let description = String(text.dropFirst(code.count)).trimmingBlanks()
    return NATSHeaders(status: status, statusDescription: description)
  }

  /// Appends the block for `headers`, refusing names and values that would break it.
  static func write(_ headers: NATSHeaders, into output: inout [UInt8]) throws(NATSCommandError) {
    output.append(contentsOf: version)
    output.append(contentsOf: crlf)
    for field in headers.fields {
      guard !field.name.isEmpty,
        field.name.utf8.allSatisfy({ $0 > 32 && $0 < 127 && $0 != UInt8(ascii: ":") })
      else { throw .invalidHeader(field.name) }
      guard !field.value.utf8.contains(where: { $0 == 13 || $0 == 10 }) else {
        throw .invalidHeader(field.name)
      }
      output.append(contentsOf: field.name.utf8)
      output.append(contentsOf: [UInt8(ascii: ":"), UInt8(ascii: " ")])
      output.append(contentsOf: field.value.utf8)
      output.append(contentsOf: crlf)
    }
    output.append(contentsOf: crlf)
  }
}

private let crlf: [UInt8] = [13, 10]
private let crlfcrlf: [UInt8] = [13, 10, 13, 10]
