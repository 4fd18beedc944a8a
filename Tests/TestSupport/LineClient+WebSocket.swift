/// A raw WebSocket upgrade over a ``LineClient``, for tests that then speak frames byte by byte.
extension LineClient {
  /// The upgrade request for `/ws` with RFC 6455's sample key, and nothing else.
  public static let webSocketUpgrade = Array(
    ("GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
      + "Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n").utf8)

  /// Sends the upgrade and waits for the greeting's text frame; returns what arrived (the 101
  /// head, then the greeting), or `nil` when no greeting came in time.
  public func upgradeToWebSocket() throws -> [UInt8]? {
    try sendRaw(Self.webSocketUpgrade)
    var received: [UInt8] = []
    let greeted = try eventually {
      received += try readAvailable(timeout: .milliseconds(100))
      return String(decoding: received, as: UTF8.self).contains(#""hello":"#)
    }
    return greeted ? received : nil
  }
}
