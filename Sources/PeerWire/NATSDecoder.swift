/// Reads what nats-server sends a client: `INFO`, `MSG` with its payload, `PING`, `PONG`,
/// `+OK` and `-ERR`, each line ending in `\r\n`.
public enum NATSDecoder {
  /// Hands every complete operation in `bytes` to `handle`, and returns how many bytes they
  /// took; an unfinished one (a line, or a `MSG` whose payload is still arriving) waits for the
  /// next call.
  public static func decode(
    _ bytes: UnsafeRawBufferPointer, _ handle: (PeerMessage) -> Void
  ) throws(PeerWireError) -> Int {
    var position = 0
    while position < bytes.count {
      guard let lineEnd = bytes.crlf(from: position) else { break }
      let line = position..<lineEnd
      if lineEnd - position > 4, bytes.matches(position..<position + 4, "MSG ") {
        // MSG <subject> <sid> [reply-to] <#bytes>: the size is the last field.
        var sizeStart = lineEnd
        while sizeStart > position + 4, bytes[sizeStart - 1] != 0x20 { sizeStart -= 1 }
        guard let size = bytes.decimal(sizeStart..<lineEnd) else {
          throw PeerWireError("NATS MSG without a size: \(text(bytes, line))")
        }
        let payloadStart = lineEnd + 2
        guard payloadStart + size + 2 <= bytes.count else { break }
        guard bytes[payloadStart + size] == 0x0D, bytes[payloadStart + size + 1] == 0x0A else {
          throw PeerWireError("NATS MSG payload of \(size) bytes not followed by CRLF")
        }
        handle(
          .delivery(UnsafeRawBufferPointer(rebasing: bytes[payloadStart..<payloadStart + size])))
        position = payloadStart + size + 2
        continue
      }
      if bytes.matches(line, "PING") {
        handle(.ping)
      } else if bytes.matches(line, "PONG") {
        handle(.pong)
      } else if lineEnd - position >= 4, bytes.matches(position..<position + 4, "-ERR") {
        handle(.refused(text(bytes, line)))
      } else if lineEnd - position >= 5, bytes.matches(position..<position + 5, "INFO ") {
        handle(.greeting)
      } else if bytes.matches(line, "+OK") {
        handle(.other)
      } else {
        throw PeerWireError("not NATS: \(text(bytes, line))")
      }
      position = lineEnd + 2
    }
    return position
  }

  /// The `INFO` line at the start of `bytes`, its JSON object as text, once it is complete;
  /// over TLS it arrives in clear before the handshake (nats-server 2.9).
  public static func info(in bytes: UnsafeRawBufferPointer) -> (json: String, length: Int)? {
    guard let lineEnd = bytes.crlf(from: 0), lineEnd >= 5, bytes.matches(0..<5, "INFO ") else {
      return nil
    }
    return (text(bytes, 5..<lineEnd), lineEnd + 2)
  }

  private static func text(_ bytes: UnsafeRawBufferPointer, _ range: Range<Int>) -> String {
    UnsafeRawBufferPointer(
      rebasing: bytes[range.lowerBound..<min(range.upperBound, range.lowerBound + 200)]
    ).text
  }
}
