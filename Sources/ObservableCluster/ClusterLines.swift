import ObservableWire

/// Checks and cuts the delivery lines that travel between nodes.
///
/// A node forwards the lines it encoded for its own subscribers, `{"stream":T,"value":V}\n`
/// each, so the receiving node delivers them without encoding them again. Anything on NATS can
/// publish to the prefix, so a node delivers only lines of exactly that shape, for the topic of
/// the subject, whose value is valid JSON.
package enum ClusterLines {
  /// How many lines `payload` holds when each is a valid delivery line for `topic`, or `nil`.
  static func validate(_ payload: ArraySlice<UInt8>, topic: String) -> Int? {
    let prefix = DeliveryEncoder.prefix(stream: topic)
    return payload.withUnsafeBytes { bytes -> Int? in
      var start = 0
      var count = 0
      while start < bytes.count {
        guard let newline = bytes[start...].firstIndex(of: 0x0A) else { return nil }
        let line = UnsafeRawBufferPointer(rebasing: bytes[start..<newline])
        guard line.count >= prefix.count + 2, line.starts(with: prefix),
          line[line.count - 1] == UInt8(ascii: "}")
        else { return nil }
        let value = UnsafeRawBufferPointer(
          rebasing: line[prefix.count..<(line.count - 1)])
        guard let scanned = try? JSONScanner.scanValue(value),
          scanned.range == 0..<value.count
        else { return nil }
        count += 1
        start = newline + 1
      }
      return count == 0 ? nil : count
    }
  }

  /// Cuts `lines` at line ends into pieces of at most `limit` bytes; a single line longer
  /// than `limit` is left out (its publisher was refused before it was delivered).
  static func pieces(_ lines: [UInt8], limit: Int) -> [ArraySlice<UInt8>] {
    guard lines.count > limit else { return [lines[...]] }
    var pieces: [ArraySlice<UInt8>] = []
    var pieceStart = 0
    var lineStart = 0
    while lineStart < lines.count {
      let end = (lines[lineStart...].firstIndex(of: 0x0A) ?? (lines.count - 1)) + 1
      if end - pieceStart > limit {
        if lineStart > pieceStart { pieces.append(lines[pieceStart..<lineStart]) }
        pieceStart = end - lineStart > limit ? end : lineStart
      }
      lineStart = end
    }
    if pieceStart < lines.count { pieces.append(lines[pieceStart..<lines.count]) }
    return pieces
  }

  /// `lines` cut at every line end, one piece per line.
  static func split(_ lines: [UInt8]) -> [ArraySlice<UInt8>] {
    var pieces: [ArraySlice<UInt8>] = []
    var start = 0
    while start < lines.count {
      let end = (lines[start...].firstIndex(of: 0x0A) ?? (lines.count - 1)) + 1
      pieces.append(lines[start..<end])
      start = end
    }
    return pieces
  }

  /// The topic of a chunk of lines, `{"stream":"T",...`; names need no escaping, so it ends
  /// at the next quote.
  static func topic(of lines: [UInt8]) -> Substring? {
    let start = 11
    guard lines.count > start,
      let end = lines[start...].firstIndex(of: UInt8(ascii: "\""))
    else { return nil }
    return Substring(decoding: lines[start..<end], as: UTF8.self)
  }
}
