/// Reads RESP2 (Redis's protocol) as a pub/sub client sees it: pushed `message` and
/// `subscribe` arrays, the integer a `PUBLISH` returns, `+PONG` and errors.
///
/// Only the shapes a pub/sub benchmark meets are understood in depth; any other well-formed
/// value is ``PeerMessage/other``. Nothing is allocated for a delivery: its payload is handed
/// out in place.
public enum RESPDecoder {
  /// Hands every complete value in `bytes` to `handle`, and returns how many bytes they took;
  /// the rest (an unfinished value) is for the next call, with more bytes after it.
  public static func decode(
    _ bytes: UnsafeRawBufferPointer, _ handle: (PeerMessage) -> Void
  ) throws(PeerWireError) -> Int {
    var position = 0
    while position < bytes.count {
      guard let (message, end) = try value(in: bytes, at: position) else { break }
      handle(message)
      position = end
    }
    return position
  }

  /// The value at `start` and where it ends, or `nil` when it is not complete yet.
  private static func value(
    in bytes: UnsafeRawBufferPointer, at start: Int
  ) throws(PeerWireError) -> (PeerMessage, Int)? {
    guard let lineEnd = bytes.crlf(from: start) else { return nil }
    let body = start + 1..<lineEnd
    switch bytes[start] {
    case UInt8(ascii: "+"):
      return (bytes.matches(body, "PONG") ? .pong : .other, lineEnd + 2)
    case UInt8(ascii: "-"):
      return (.refused(UnsafeRawBufferPointer(rebasing: bytes[body]).text), lineEnd + 2)
    case UInt8(ascii: ":"):
      return (.acknowledged, lineEnd + 2)
    case UInt8(ascii: "$"):
      guard let end = try bulkEnd(in: bytes, header: start, headerEnd: lineEnd) else { return nil }
      return (.other, end)
    case UInt8(ascii: "*"):
      guard let count = bytes.decimal(body) else { throw malformed(bytes, start, lineEnd) }
      return try array(in: bytes, count: count, elementsStart: lineEnd + 2)
    default:
      throw malformed(bytes, start, lineEnd)
    }
  }

  /// An array of `count` elements starting at `elementsStart`; what its first element says it
  /// is: `message` (a delivery, its payload the third element), `subscribe`, `pong`.
  private static func array(
    in bytes: UnsafeRawBufferPointer, count: Int, elementsStart: Int
  ) throws(PeerWireError) -> (PeerMessage, Int)? {
    // The first and third elements, kept in place: nothing is allocated per delivery.
    var first: Range<Int>?
    var third: Range<Int>?
    var position = elementsStart
    for index in 0..<count {
      let element: Range<Int>
      guard position < bytes.count, let lineEnd = bytes.crlf(from: position) else { return nil }
      switch bytes[position] {
      case UInt8(ascii: "$"):
        guard let end = try bulkEnd(in: bytes, header: position, headerEnd: lineEnd) else {
          return nil
        }
        element = lineEnd + 2..<end - 2
        position = end
      case UInt8(ascii: ":"), UInt8(ascii: "+"):
        element = position + 1..<lineEnd
        position = lineEnd + 2
      default:
        throw malformed(bytes, position, lineEnd)
      }
      if index == 0 { first = element } else if index == 2 { third = element }
    }
    guard let kind = first else { return (.other, position) }
    if bytes.matches(kind, "message"), count == 3, let payload = third {
      return (.delivery(UnsafeRawBufferPointer(rebasing: bytes[payload])), position)
    }
    if bytes.matches(kind, "subscribe") { return (.subscribed, position) }
    if bytes.matches(kind, "pong") { return (.pong, position) }
    return (.other, position)
  }

  /// The end of the bulk string whose `$N` header runs from `header` to `headerEnd`, its
  /// closing `\r\n` included; `nil` when not all of it has arrived.
  private static func bulkEnd(
    in bytes: UnsafeRawBufferPointer, header: Int, headerEnd: Int
  ) throws(PeerWireError) -> Int? {
    let digits = header + 1..<headerEnd
    // `$-1` is RESP2's null bulk string.
    if bytes.matches(digits, "-1") { return headerEnd + 2 }
    guard let length = bytes.decimal(digits) else { throw malformed(bytes, header, headerEnd) }
    let end = headerEnd + 2 + length + 2
    guard end <= bytes.count else { return nil }
    guard bytes[end - 2] == 0x0D, bytes[end - 1] == 0x0A else {
      throw PeerWireError("RESP bulk string of \(length) bytes not followed by CRLF")
    }
    return end
  }

  private static func malformed(
    _ bytes: UnsafeRawBufferPointer, _ start: Int, _ end: Int
  ) -> PeerWireError {
    PeerWireError(
      "not RESP: \(UnsafeRawBufferPointer(rebasing: bytes[start..<min(end, start + 80)]).text)")
  }
}
