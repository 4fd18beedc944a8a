/// Encodes the line a stream sends its observers: `{"stream":NAME,"value":V}\n`.
///
/// A value is encoded once per publish and the same bytes go to every subscriber.
enum DeliveryEncoder {
  /// Encodes raw, already validated JSON `value` for the stream `name`.
  static func line(stream name: String, rawValue value: UnsafeRawBufferPointer) -> [UInt8] {
    var line = prefix(stream: name, reserving: value.count + 2)
    appendEnd(rawValue: value, to: &line)
    return line
  }

  /// The start of every line of the stream `name`, `{"stream":NAME,"value":`, which the lines
  /// of a batch share (``append(rawValue:after:to:)``), with room for `extra` more bytes.
  static func prefix(stream name: String, reserving extra: Int = 0) -> [UInt8] {
    var prefix: [UInt8] = []
    prefix.reserveCapacity(name.utf8.count + 22 + extra)
    prefix.append(literal: #"{"stream":""#)
    // Valid names are tokens of [A-Za-z0-9_-] and dots, which need no escaping.
    prefix.append(utf8: name)
    prefix.append(literal: #"","value":"#)
    return prefix
  }

  /// Appends the line that starts with `prefix`, the stream's ``prefix(stream:reserving:)``,
  /// and carries raw, already validated JSON `value`.
  static func append(
    rawValue value: UnsafeRawBufferPointer, after prefix: [UInt8], to out: inout [UInt8]
  ) {
    out.append(contentsOf: prefix)
    appendEnd(rawValue: value, to: &out)
  }

  private static func appendEnd(rawValue value: UnsafeRawBufferPointer, to out: inout [UInt8]) {
    out.append(contentsOf: value)
    out.append(literal: "}\n")
  }

  /// Encodes a line of text from a source such as a process: JSON if it parses, else a string.
  static func line(stream name: String, text: UnsafeRawBufferPointer) -> [UInt8] {
    if let scanned = try? JSONScanner.scanValue(text) {
      return line(stream: name, rawValue: UnsafeRawBufferPointer(rebasing: text[scanned.range]))
    }
    var encoded: [UInt8] = []
    JSONStringEncoding.append(String(decoding: text, as: UTF8.self), to: &encoded)
    return encoded.withUnsafeBytes { line(stream: name, rawValue: $0) }
  }
}
