import Foundation
import TestSupport

/// A client of the server's `/ws` endpoint, written from RFC 6455 rather than the server's
/// codec: masked text frames out, unmasked text frames in, each line a JSON object.
final class WebSocketClient {
  private let connection: LineClient
  private var received: [UInt8] = []
  private var lines: [[String: Any]] = []

  /// Connects to the HTTP port and upgrades; the greeting is read and dropped.
  init(port: UInt16) throws {
    connection = try LineClient(port: port, readGreeting: false)
    guard let head = try connection.upgradeToWebSocket() else {
      throw TestSupportError("no WebSocket greeting")
    }
    // What came after the 101 head is the greeting's frame: drop it.
    if let end = head.firstRange(of: Array("\r\n\r\n".utf8))?.upperBound {
      received = Array(head[end...])
      _ = try nextLine(timeout: .seconds(5))
    }
  }

  /// Sends `text` as one masked text frame.
  func send(_ text: String) throws {
    let payload = Array(text.utf8)
    let mask: [UInt8] = [0x12, 0x34, 0x56, 0x78]
    var frame: [UInt8] = [0x81]
    if payload.count < 126 {
      frame.append(0x80 | UInt8(payload.count))
    } else {
      frame += [0x80 | 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
    }
    frame += mask
    frame += payload.enumerated().map { $0.element ^ mask[$0.offset % 4] }
    try connection.sendRaw(frame)
  }

  /// Sends `text` and returns the first line that is a reply (has `ok`).
  func request(_ text: String) throws -> [String: Any] {
    try send(text)
    return try read(until: { $0["ok"] != nil })
  }

  /// The next line for which `matches` holds; lines before it are dropped.
  func read(until matches: ([String: Any]) -> Bool) throws -> [String: Any] {
    let deadline = ContinuousClock.now + .seconds(5)
    while ContinuousClock.now < deadline {
      let line = try nextLine(timeout: deadline - .now)
      if matches(line) { return line }
    }
    throw TestSupportError("no matching line in time")
  }

  private func nextLine(timeout: Duration) throws -> [String: Any] {
    let deadline = ContinuousClock.now + timeout
    while lines.isEmpty {
      if let payload = takeFrame() {
        for line in payload.split(separator: UInt8(ascii: "\n")) {
          let object = try JSONSerialization.jsonObject(with: Data(line)) as? [String: Any]
          lines.append(object ?? [:])
        }
        continue
      }
      guard ContinuousClock.now < deadline else { throw TestSupportError("no frame in time") }
      received += try connection.readAvailable(timeout: deadline - .now)
    }
    return lines.removeFirst()
  }

  /// One whole unmasked frame's payload from what was received, or `nil` for not yet.
  private func takeFrame() -> [UInt8]? {
    guard received.count >= 2 else { return nil }
    var length = Int(received[1] & 0x7F)
    var start = 2
    if length == 126 {
      guard received.count >= 4 else { return nil }
      length = Int(received[2]) << 8 | Int(received[3])
      start = 4
    } else if length == 127 {
      guard received.count >= 10 else { return nil }
      length = received[2..<10].reduce(0) { $0 << 8 | Int($1) }
      start = 10
    }
    guard received.count >= start + length else { return nil }
    let payload = Array(received[start..<(start + length)])
    received.removeFirst(start + length)
    return payload
  }
}
