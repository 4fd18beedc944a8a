import ObservableWire

/// The `text/event-stream` form of the session's lines (the WHATWG HTML standard, section
/// 9.2): a delivery `{"stream":"t",…}` becomes
///
///     event:t
///     data:{"stream":"t",…}
///
/// and an error reply becomes the same with `event:error`. When history is on, a line with a
/// position adds `id:POSITION`, which a reconnecting `EventSource` sends back as
/// `Last-Event-ID`; a resume that could not recover everything (`"recovered":false`) becomes an
/// `event:gap` whose data is that reply. Other lines are left out.
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

  /// The events for `lines`, whole `\n`-terminated lines, in an array of their own; empty
  /// when none is an event. `ids` looks for each delivery's position, which lines carry only
  /// when history is on.
  package static func events(of lines: [UInt8], ids: Bool = true) -> [UInt8] {
    var events: [UInt8] = []
    lines.withUnsafeBytes { append(lines: $0, ids: ids, to: &events) }
    return events
  }

  /// The delivery encoding of every SSE connection, with `ids` when the server keeps history:
  /// one instance each, so that the connections' observers find each other's events (see
  /// `DeliveryEncodingMemo` in the transport).
  package static func once(ids: Bool) -> any DeliveryEncoding {
    ids ? withIDs : withoutIDs
  }

  private static let withIDs: any DeliveryEncoding = EventEncoding(ids: true)
  private static let withoutIDs: any DeliveryEncoding = EventEncoding(ids: false)

  /// Appends the events for `lines`, whole `\n`-terminated lines, to `out`.
  package static func append(lines: UnsafeRawBufferPointer, ids: Bool, to out: inout [UInt8]) {
    let end = write(lines: lines, ids: ids, into: &out, at: out.count)
    out.removeLast(out.count - end)
  }

  /// Writes the events for `lines` into `out` from `offset` on and returns where they end;
  /// what `out` holds past that is room, not events. The one place events are made: each is
  /// written as it is found, so every line is searched once. Sizing every event in a first
  /// pass and writing in a second found each event twice, about 100 instructions an event
  /// more than this. Carriage returns are looked for once in all the lines (an observer is
  /// handed a publish batch's lines together, often tens), not in each event's data: there are
  /// almost never any, and a search per event cost about 30 instructions.
  ///
  /// `out` grows (zeroed, to be overwritten) to ``room(for:)`` of `lines` at once, so that one
  /// access to its storage serves the whole call, and a buffer kept between calls
  /// (``DeliveryEncodingMemo``'s scratch) stops growing; past 1 MiB of room it grows an event
  /// at a time instead, so that a huge value zeroes no more than its events.
  static func write(
    lines: UnsafeRawBufferPointer, ids: Bool, into out: inout [UInt8], at offset: Int
  ) -> Int {
    guard let base = lines.baseAddress else { return offset }
    let carriageReturns = ByteSearch.first(0x0D, in: base, count: lines.count) != nil
    let room = room(for: lines.count)
    if out.count - offset < room {
      guard room <= 1 << 20 else {
        return writeGrowing(
          lines: lines, ids: ids, carriageReturns: carriageReturns, into: &out, at: offset)
      }
      out.append(contentsOf: repeatElement(0, count: room - (out.count - offset)))
    }
    return out.withUnsafeMutableBufferPointer { buffer in
      let start = buffer.baseAddress! + offset
      var next = start
      forEachEvent(in: lines, ids: ids) { event in
        next = event.write(to: next, carriageReturns: carriageReturns)
      }
      return offset + (next - start)
    }
  }

  /// The most bytes the events of `count` bytes of lines take. A line that is an event is at
  /// least 11 bytes (``streamKey``, ``failedKey``), and its event is its data (the line), its
  /// name and position (apart, after those 11 bytes, so at most the line less 11), and 18
  /// bytes of fields: at most twice the line and 8 bytes. At most `(count + 1) / 12` lines
  /// (each 12 bytes or more with its line feed, the last maybe without) make at most
  /// `2 * count + count + 1` bytes.
  static func room(for count: Int) -> Int { 3 * count + 1 }

  /// ``write(lines:ids:into:at:)`` growing `out` only when an event does not fit, by at least
  /// what it wrote so far: for batches whose ``room(for:)`` would zero far more than needed.
  private static func writeGrowing(
    lines: UnsafeRawBufferPointer, ids: Bool, carriageReturns: Bool, into out: inout [UInt8],
    at offset: Int
  ) -> Int {
    var used = offset
    forEachEvent(in: lines, ids: ids) { event in
      let size = event.size
      if out.count - used < size {
        out.append(contentsOf: repeatElement(0, count: max(size, used - offset)))
      }
      out.withUnsafeMutableBufferPointer { room in
        _ = event.write(to: room.baseAddress! + used, carriageReturns: carriageReturns)
      }
      used += size
    }
    return used
  }

  /// Calls `body` with the event of each line of `lines` that is one; with its `id` when
  /// `ids`. Without history no line has a position, and looking for one in a line ending in a
  /// string value cost about 130 instructions a pass, a sixth of an event at one reader.
  private static func forEachEvent(
    in lines: UnsafeRawBufferPointer, ids: Bool, _ body: (ServerSentEvent) -> Void
  ) {
    guard let base = lines.baseAddress else { return }
    var start = 0
    var name = UnsafeRawBufferPointer(start: nil, count: 0)
    while start < lines.count {
      let end =
        ByteSearch.first(0x0A, in: base + start, count: lines.count - start)
        .map { $0 - base } ?? lines.count
      let line = UnsafeRawBufferPointer(rebasing: lines[start..<end])
      if line.hasPrefix(streamKey) {
        name = streamName(in: line, likely: name)
        body(ServerSentEvent(name: name, id: ids ? position(in: line) : nil, data: line))
      } else if line.hasPrefix(failedKey) {
        body(ServerSentEvent(name: errorName.bytes, data: line))
      } else if line.hasPrefix(subscribedKey), line.contains(notRecovered) {
        body(ServerSentEvent(name: gapName.bytes, data: line))
      }
      start = end + 1
    }
  }

  /// The stream's name in a delivery line, which starts with ``streamKey``: up to the next
  /// quote, since names need no escaping. `likely` is the name of the line before: a publish
  /// batch's lines come together, mostly one stream's, and comparing with it in place costs
  /// less than the search (it is the name, as a name has no quote, when the line holds it
  /// followed by a quote).
  private static func streamName(
    in line: UnsafeRawBufferPointer, likely: UnsafeRawBufferPointer
  ) -> UnsafeRawBufferPointer {
    let nameStart = streamKey.utf8CodeUnitCount
    let rest = UnsafeRawBufferPointer(rebasing: line[nameStart...])
    if let likelyBase = likely.baseAddress, let base = rest.baseAddress,
      rest.count > likely.count,
      base.load(fromByteOffset: likely.count, as: UInt8.self) == UInt8(ascii: "\""),
      base.bytesEqual(likelyBase, count: likely.count)
    {
      return UnsafeRawBufferPointer(start: base, count: likely.count)
    }
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
  /// A line ending in a string value (no position) is searched for its opening quote eight
  /// bytes at a time: byte by byte, that search cost some 380 instructions, more than the
  /// rest of the line's event.
  static func position(in line: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer? {
    let quote = UInt8(ascii: "\"")
    let key = positionKey.bytes
    let count = line.count
    guard count > key.count + 2, let base = line.baseAddress,
      base.load(fromByteOffset: count - 1, as: UInt8.self) == UInt8(ascii: "}"),
      base.load(fromByteOffset: count - 2, as: UInt8.self) == quote
    else { return nil }
    let end = count - 2
    guard let opening = lastQuote(in: base, from: max(0, end - 34), to: end) else { return nil }
    let start = opening + 1
    guard start >= key.count,
      UnsafeRawBufferPointer(start: base + start - key.count, count: key.count)
        .elementsEqual(key)
    else { return nil }
    return UnsafeRawBufferPointer(rebasing: line[start..<end])
  }

  /// Where the last quote in bytes `from..<to` of `base` is.
  private static func lastQuote(in base: UnsafeRawPointer, from: Int, to: Int) -> Int? {
    let quote = UInt8(ascii: "\"")
    var end = to
    while end - from >= 8 {
      // A quote is a zero byte after the XOR; the usual test for a zero byte in a word.
      let word =
        base.loadUnaligned(fromByteOffset: end - 8, as: UInt64.self) ^ 0x2222_2222_2222_2222
      if (word &- 0x0101_0101_0101_0101) & ~word & 0x8080_8080_8080_8080 != 0 { break }
      end -= 8
    }
    while end > from {
      end -= 1
      if base.load(fromByteOffset: end, as: UInt8.self) == quote { return end }
    }
    return nil
  }

  /// How every delivery line starts (``DeliveryEncoder``).
  private static let streamKey: StaticString = #"{"stream":""#
  /// How every error reply starts (``ReplyEncoder``).
  private static let failedKey: StaticString = #"{"ok":false"#
  /// The name of an error reply's event.
  private static let errorName: StaticString = "error"
  /// How a subscribe's reply starts (``ReplyEncoder``).
  private static let subscribedKey: StaticString = #"{"ok":true,"op":"subscribe""#
  /// What a resume's reply says when history no longer reached back to its position.
  private static let notRecovered = Array(#""recovered":false"#.utf8)
  /// The name of that reply's event.
  private static let gapName: StaticString = "gap"
  /// The key before a delivery's position, up to the position's opening quote.
  private static let positionKey: StaticString = #","pos":""#
}

/// ``ServerSentEvents`` as a ``DeliveryEncoding``.
private final class EventEncoding: DeliveryEncoding {
  init(ids: Bool) { self.ids = ids }

  func encode(_ lines: [UInt8]) -> [UInt8] { ServerSentEvents.events(of: lines, ids: ids) }

  /// The events written into `scratch` and copied once into an array of their size: the
  /// events' size is known only once they are found, and finding them twice cost more.
  func encode(_ lines: [UInt8], scratch: inout [UInt8]) -> [UInt8] {
    let end = lines.withUnsafeBytes {
      ServerSentEvents.write(lines: $0, ids: ids, into: &scratch, at: 0)
    }
    return end == 0 ? [] : Array(scratch[..<end])
  }

  /// Whether events carry their positions as `id:`.
  private let ids: Bool
}
