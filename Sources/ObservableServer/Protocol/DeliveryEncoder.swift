/// Encodes the line a stream sends its observers: `{"stream":NAME,"value":V}\n`.
///
/// A value is encoded once per publish and the same bytes go to every subscriber.
enum DeliveryEncoder {
  /// Encodes raw, already validated JSON `value` for the stream `name`.
  static func line(stream name: String, rawValue value: UnsafeRawBufferPointer) -> [UInt8] {
    var line: [UInt8] = []
    line.reserveCapacity(name.utf8.count + value.count + 24)
    append(stream: name, rawValue: value, to: &line)
    return line
  }

  /// Appends the line for raw, already validated JSON `value` and the stream `name` to `out`.
  static func append(
    stream name: String, rawValue value: UnsafeRawBufferPointer, to out: inout [UInt8]
  ) {
    out.append(literal: #"{"stream":""#)
    // Valid names are tokens of [A-Za-z0-9_-] and dots, which need no escaping.
    out.append(utf8: name)
    out.append(literal: #"","value":"#)
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
