import ObservableWire

/// Finds the bytes of one member's value in a JSON object line without decoding them.
///
/// The client hands a delivery's value on as the bytes that arrived, so that
/// ``ObservableClient/stream(_:as:since:)`` decodes them once, into the caller's type, and
/// printing shows exactly what the server sent. The scan is the wire protocol's
/// ``JSONScanner``, the one the server reads requests with.
enum RawJSONMember {
  /// The bytes of the first top-level member named `key`, or `nil` when the line is not a JSON
  /// object or has no such member.
  static func value(named key: String, in line: ArraySlice<UInt8>) -> ArraySlice<UInt8>? {
    let found = line.withUnsafeBytes { raw -> Range<Int>? in
      guard let members = try? JSONScanner.scanObject(raw) else { return nil }
      return members.first { $0.key == key }?.value
    }
    guard let found else { return nil }
    return line[(line.startIndex + found.lowerBound)..<(line.startIndex + found.upperBound)]
  }
}
