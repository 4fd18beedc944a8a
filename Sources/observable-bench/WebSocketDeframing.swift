import Glibc

/// The load client's side of WebSocket: server frames turned back into lines in place, and
/// request lines framed as a client must.
///
/// The server's frames are unmasked and, without permessage-deflate (``InflatingFrames``
/// reads compressed ones), each text frame is one line; a frame's header is at least two bytes and its line gains one
/// newline, so the lines always fit where the frames were and no copy to another buffer is
/// needed. Control frames (the server's pings) are skipped: a run is far shorter than the ping
/// interval.
enum WebSocketDeframing {
  /// Turns the complete frames in `buffer[start..<rawEnd]` into lines starting at `start`;
  /// returns the end of those lines and the end of the partial frame moved after them.
  static func deframe(
    _ buffer: UnsafeMutableRawPointer, from start: Int, to rawEnd: Int
  ) -> (linesEnd: Int, rawEnd: Int) {
    var read = start
    var write = start
    while let frame = frame(in: buffer, from: read, to: rawEnd) {
      if frame.first & 0x0F == 0x1 {
        memmove(buffer + write, buffer + read + frame.header, frame.length)
        write += frame.length
        buffer.storeBytes(of: 0x0A, toByteOffset: write, as: UInt8.self)
        write += 1
      }
      read += frame.header + frame.length
    }
    let partial = rawEnd - read
    if partial > 0, read != write { memmove(buffer + write, buffer + read, partial) }
    return (write, write + partial)
  }

  /// The unmasked frame starting at `buffer[start]`: its first byte, header length and payload
  /// length; nil unless it is all in `buffer[start..<end]`.
  static func frame(
    in buffer: UnsafeMutableRawPointer, from start: Int, to end: Int
  ) -> (first: UInt8, header: Int, length: Int)? {
    guard end - start >= 2 else { return nil }
    let first = buffer.load(fromByteOffset: start, as: UInt8.self)
    let second = buffer.load(fromByteOffset: start + 1, as: UInt8.self)
    var header = 2
    var length = Int(second & 0x7F)
    if length == 126 {
      guard end - start >= 4 else { return nil }
      length =
        Int(buffer.load(fromByteOffset: start + 2, as: UInt8.self)) << 8
        | Int(buffer.load(fromByteOffset: start + 3, as: UInt8.self))
      header = 4
    } else if length == 127 {
      guard end - start >= 10 else { return nil }
      length = 0
      for index in 2..<10 {
        length = length << 8 | Int(buffer.load(fromByteOffset: start + index, as: UInt8.self))
      }
      header = 10
    }
    guard end - start >= header + length else { return nil }
    return (first, header, length)
  }

  /// Appends `line` as one masked text frame, as RFC 6455 requires of clients. The mask is
  /// zero: the server unmasks all the same, and the load client must stay cheap.
  static func appendFrame(_ line: some Collection<UInt8>, to output: inout [UInt8]) {
    output.append(0x81)
    if line.count < 126 {
      output.append(0x80 | UInt8(line.count))
    } else {
      output.append(0x80 | 126)
      output.append(UInt8(line.count >> 8))
      output.append(UInt8(truncatingIfNeeded: line.count))
    }
    output.append(contentsOf: [0, 0, 0, 0])
    output.append(contentsOf: line)
  }

  /// The upgrade request for `/ws`, offering `extensions` (`Sec-WebSocket-Extensions`) when
  /// not empty.
  static func upgradeRequest(port: UInt16, offering extensions: String = "") -> [UInt8] {
    let offer = extensions.isEmpty ? "" : "Sec-WebSocket-Extensions: \(extensions)\r\n"
    return Array(
      ("GET /ws HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nUpgrade: websocket\r\n"
        + "Connection: Upgrade\r\nSec-WebSocket-Key: b2JzZXJ2YWJsZS1iZW5jaA==\r\n"
        + "Sec-WebSocket-Version: 13\r\n\(offer)\r\n").utf8)
  }
}
