import Foundation
import Testing

@testable import ObservableServer

/// Shutdown tells WebSocket peers it is going away.
@Suite("WebSocket at shutdown", .timeLimit(.minutes(1)))
struct WebSocketShutdownTests {
  @Test func shutdownSendsCloseFrame1001() throws {
    let server = try TestServer.withHTTP()
    let client = try LineClient(port: server.httpPort, readGreeting: false)
    defer { client.close() }
    let upgrade =
      "GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
      + "Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n"
    try client.sendRaw(Array(upgrade.utf8))
    var received: [UInt8] = []
    // The 101 head, then the greeting as a text frame (0x81).
    let greeted = try eventually {
      received += try client.readAvailable(timeout: .milliseconds(100))
      return String(decoding: received, as: UTF8.self).contains(#""hello":"#)
    }
    #expect(greeted)
    #expect(String(decoding: received, as: UTF8.self).hasPrefix("HTTP/1.1 101"))
    server.stop()
    #expect(client.waitForClose())
    let close: [UInt8] = [0x88, 0x02, 0x03, 0xE9]
    // What arrived before the close, kept raw by the client.
    let tail = try client.readAvailable()
    #expect(tail.starts(with: close), "\(tail)")
  }
}
