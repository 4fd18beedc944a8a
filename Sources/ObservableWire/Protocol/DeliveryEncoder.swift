/// Encodes the line a stream sends its observers: `{"stream":NAME,"value":V}\n`, or
/// `{"stream":NAME,"sub":PATTERN,"value":V}\n` through a pattern subscription (protocol 1.1).
///
/// A value is encoded once per publish and the same bytes go to every subscriber; through
/// patterns, once more per distinct pattern.
package enum DeliveryEncoder {
  /// Encodes raw, already validated JSON `value` for the stream `name`.
  ///
  /// Written into an array of exactly its length, four copies in all: appended piece by piece,
  /// each append's checks of room and uniqueness cost more than its copy, and the line was
  /// most of the encoding of a retained publish, which is encoded alone.
  package static func line(stream name: String, rawValue value: UnsafeRawBufferPointer) -> [UInt8] {
    var name = name
    return name.withUTF8 { name in
      let count =
        streamKey.utf8CodeUnitCount + name.count + valueKey.utf8CodeUnitCount + value.count + 2
      return [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
        var next = UnsafeMutableRawPointer(buffer.baseAddress!)
        copy(
          UnsafeRawBufferPointer(start: streamKey.utf8Start, count: streamKey.utf8CodeUnitCount),
          to: &next)
        copy(UnsafeRawBufferPointer(name), to: &next)
        copy(
          UnsafeRawBufferPointer(start: valueKey.utf8Start, count: valueKey.utf8CodeUnitCount),
          to: &next)
        copy(value, to: &next)
        next.storeBytes(of: UInt8(ascii: "}"), as: UInt8.self)
        next.storeBytes(of: UInt8(ascii: "\n"), toByteOffset: 1, as: UInt8.self)
        initialized = count
      }
    }
  }

  /// Copies `bytes` to `next` and moves `next` past them.
  private static func copy(_ bytes: UnsafeRawBufferPointer, to next: inout UnsafeMutableRawPointer)
  {
    guard let start = bytes.baseAddress, !bytes.isEmpty else { return }
    next.copyMemory(from: start, byteCount: bytes.count)
    next += bytes.count
  }

  /// The start of every line of the stream `name`, `{"stream":NAME,"value":`, which the lines
  /// of a batch share (``append(rawValue:after:to:)``), with room for `extra` more bytes.
  package static func prefix(stream name: String, reserving extra: Int = 0) -> [UInt8] {
    var prefix: [UInt8] = []
    prefix.reserveCapacity(name.utf8.count + 22 + extra)
    prefix.append(literal: streamKey)
    // Valid names are tokens of [A-Za-z0-9_-] and dots, which need no escaping.
    prefix.append(utf8: name)
    prefix.append(literal: valueKey)
    return prefix
  }

  /// The length of ``prefix(stream:reserving:)``, without making it.
  package static func prefixLength(stream name: String) -> Int {
    streamKey.utf8CodeUnitCount + name.utf8.count + valueKey.utf8CodeUnitCount
  }

  private static let streamKey: StaticString = #"{"stream":""#
  private static let valueKey: StaticString = #"","value":"#

  /// The start of every line of the stream `name` delivered through the subscription to
  /// `pattern`: `{"stream":NAME,"sub":PATTERN,"value":`.
  package static func prefix(stream name: String, sub pattern: String) -> [UInt8] {
    var prefix: [UInt8] = []
    prefix.reserveCapacity(name.utf8.count + pattern.utf8.count + 30)
    prefix.append(literal: streamKey)
    // Names and patterns are tokens of [A-Za-z0-9_-], `*` and `>`, which need no escaping.
    prefix.append(utf8: name)
    prefix.append(literal: #"","sub":""#)
    prefix.append(utf8: pattern)
    prefix.append(literal: #"","value":"#)
    return prefix
  }

  /// Re-encodes `lines`, one or more whole lines that each start with a prefix of
  /// `prefixLength` bytes, with `prefix` in its place: the lines a topic sends plainly, as they
  /// go through a pattern subscription.
  ///
  /// Every line ends at its first `\n`: a delivered value is validated JSON from one request
  /// line, so it holds none.
  package static func relabel(
    _ lines: [UInt8], droppingPrefix prefixLength: Int, adding prefix: [UInt8]
  )
    -> [UInt8]
  {
    var out: [UInt8] = []
    lines.withUnsafeBytes { bytes in
      var start = 0
      // Exact for a single line; a batch grows it once or twice.
      out.reserveCapacity(bytes.count + prefix.count - prefixLength)
      while start + prefixLength < bytes.count {
        let valueStart = start + prefixLength
        let end = bytes[valueStart...].firstIndex(of: 0x0A).map { $0 + 1 } ?? bytes.count
        out.append(bytesOf: prefix)
        out.append(bytes: UnsafeRawBufferPointer(rebasing: bytes[valueStart..<end]))
        start = end
      }
    }
    return out
  }

  /// Appends the line that starts with `prefix`, the stream's ``prefix(stream:reserving:)``,
  /// and carries raw, already validated JSON `value`.
  package static func append(
    rawValue value: UnsafeRawBufferPointer, after prefix: [UInt8], to out: inout [UInt8]
  ) {
    out.append(bytesOf: prefix)
    appendEnd(rawValue: value, to: &out)
  }

  private static func appendEnd(rawValue value: UnsafeRawBufferPointer, to out: inout [UInt8]) {
    out.append(bytes: value)
    out.append(literal: "}\n")
  }

  /// Encodes a line of text from a source such as a process: JSON if it parses, else a string.
  package static func line(stream name: String, text: UnsafeRawBufferPointer) -> [UInt8] {
    if let scanned = try? JSONScanner.scanValue(text) {
      return line(stream: name, rawValue: UnsafeRawBufferPointer(rebasing: text[scanned.range]))
    }
    var encoded: [UInt8] = []
    JSONStringEncoding.append(String(decoding: text, as: UTF8.self), to: &encoded)
    return encoded.withUnsafeBytes { line(stream: name, rawValue: $0) }
  }
}
