import ObservableWire

/// The `text/event-stream` form of the session's lines (the WHATWG HTML standard, section
/// 9.2): a delivery `{"stream":"t",…}` becomes
///
///     event: t
///     data: {"stream":"t",…}
///
/// and an error reply becomes the same with `event: error`. A line with a position (history
/// is on) adds `id: POSITION`, which a reconnecting `EventSource` sends back as
/// `Last-Event-ID`; a resume that could not recover everything (`"recovered":false`) becomes an
/// `event: gap` whose data is that reply. Other lines are left out.
///
/// The data is the delivery line unchanged, so a page parses what a line client reads. A
/// delivered value holds no line feed (it came from one request line) but may hold a carriage
/// return as JSON whitespace, which `EventSource` would take as the end of the line: it is
/// written as a space, which JSON reads the same.
package enum ServerSentEvents {
  /// A comment, which `EventSource` ignores: the heartbeat of an idle stream.
  package static let heartbeat = Array(": heartbeat\n\n".utf8)

  /// The field that sets how long `EventSource` waits before it reconnects a dropped stream,
  /// in whole milliseconds; sent first, so it holds from the first reconnect on.
  package static func retry(_ delay: Duration) -> [UInt8] {
    let milliseconds = max(0, delay / .milliseconds(1))
    return Array("retry: \(Int(milliseconds))\n\n".utf8)
  }

  /// The events for `lines`, whole `\n`-terminated lines; empty when none is an event.
  package static func events(of lines: [UInt8]) -> [UInt8] {
    var out: [UInt8] = []
    lines.withUnsafeBytes { append(lines: $0, to: &out) }
    return out
  }

  /// The delivery encoding of every SSE connection: one instance, so that the connections'
  /// observers find each other's events (see `DeliveryEncodingMemo` in the transport).
  package static let once: any DeliveryEncoding = EventEncoding()

  /// Appends the events for `lines`, whole `\n`-terminated lines.
  package static func append(lines: UnsafeRawBufferPointer, to out: inout [UInt8]) {
    guard let base = lines.baseAddress else { return }
    // Events are about 20 bytes longer than their lines.
    out.reserveCapacity(out.count + lines.count + lines.count / 2 + 32)
    var start = 0
    while start < lines.count {
      let end =
        ByteSearch.first(0x0A, in: base + start, count: lines.count - start)
        .map { $0 - base } ?? lines.count
      let line = UnsafeRawBufferPointer(rebasing: lines[start..<end])
      if line.hasPrefix(streamKey) {
        appendEvent(line, named: streamName(in: line), id: position(in: line), to: &out)
      } else if line.hasPrefix(failedKey) {
        errorName.withUnsafeBytes { appendEvent(line, named: $0, to: &out) }
      } else if line.hasPrefix(subscribedKey), line.contains(notRecovered) {
        gapName.withUnsafeBytes { appendEvent(line, named: $0, to: &out) }
      }
      start = end + 1
    }
  }

  /// The stream's name in a delivery line, which starts with ``streamKey``: up to the next
  /// quote, since names need no escaping.
  private static func streamName(in line: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
    let nameStart = streamKey.utf8CodeUnitCount
    let rest = UnsafeRawBufferPointer(rebasing: line[nameStart...])
    guard let base = rest.baseAddress, !rest.isEmpty,
      let quote = ByteSearch.first(UInt8(ascii: "\""), in: base, count: rest.count)
    else { return rest }
    return UnsafeRawBufferPointer(start: base, count: quote - base)
  }

  /// The position a delivery line ends with, `…,"pos":"POSITION"}`, when it has one.
  ///
  /// Only the tail is read: a position is at most 29 bytes, and its key is the line's last.
  /// A value's own `"pos"` cannot pass for it: a value is followed by the line's `}`, so the
  /// line would end in `}}` or in a string's escaped quote, never in this key's pattern.
  static func position(in line: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer? {
    let quote = UInt8(ascii: "\"")
    let count = line.count
    guard count > positionKey.count + 2, line[count - 1] == UInt8(ascii: "}"),
      line[count - 2] == quote
    else { return nil }
    let end = count - 2
    var start = end
    while start > 0, end - start <= 32, line[start - 1] != quote { start -= 1 }
    guard start >= positionKey.count, line[start - 1] == quote,
      UnsafeRawBufferPointer(rebasing: line[(start - positionKey.count)..<start])
        .elementsEqual(positionKey)
    else { return nil }
    return UnsafeRawBufferPointer(rebasing: line[start..<end])
  }

  /// Appends one event: its name, its `id` when it has one, its data (`line`, without its
  /// line feed), the blank line.
  private static func appendEvent(
    _ line: UnsafeRawBufferPointer, named name: UnsafeRawBufferPointer,
    id: UnsafeRawBufferPointer? = nil, to out: inout [UInt8]
  ) {
    out.append(literal: "event: ")
    out.append(bytes: name)
    if let id {
      out.append(literal: "\nid: ")
      out.append(bytes: id)
    }
    out.append(literal: "\ndata: ")
    appendData(line, to: &out)
    out.append(literal: "\n\n")
  }

  /// Appends `line` with each carriage return written as a space.
  private static func appendData(_ line: UnsafeRawBufferPointer, to out: inout [UInt8]) {
    guard let base = line.baseAddress else { return }
    var start = 0
    while let found = ByteSearch.first(0x0D, in: base + start, count: line.count - start) {
      let at = found - base
      out.append(bytes: UnsafeRawBufferPointer(rebasing: line[start..<at]))
      out.append(UInt8(ascii: " "))
      start = at + 1
    }
    out.append(bytes: UnsafeRawBufferPointer(rebasing: line[start...]))
  }

  /// How every delivery line starts (``DeliveryEncoder``).
  private static let streamKey: StaticString = #"{"stream":""#
  /// How every error reply starts (``ReplyEncoder``).
  private static let failedKey: StaticString = #"{"ok":false"#
  /// The name of an error reply's event.
  private static let errorName = Array("error".utf8)
  /// How a subscribe's reply starts (``ReplyEncoder``).
  private static let subscribedKey: StaticString = #"{"ok":true,"op":"subscribe""#
  /// What a resume's reply says when history no longer reached back to its position.
  private static let notRecovered = Array(#""recovered":false"#.utf8)
  /// The name of that reply's event.
  private static let gapName = Array("gap".utf8)
  /// The key before a delivery's position, up to the position's opening quote.
  private static let positionKey = Array(#","pos":""#.utf8)
}

/// ``ServerSentEvents`` as a ``DeliveryEncoding``.
private final class EventEncoding: DeliveryEncoding {
  func encode(_ lines: [UInt8]) -> [UInt8] { ServerSentEvents.events(of: lines) }
}
