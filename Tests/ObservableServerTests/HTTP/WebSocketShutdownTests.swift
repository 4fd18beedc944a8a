import Foundation
import TestSupport
import Testing

@testable import ObservableServer

/// Shutdown tells WebSocket peers it is going away.
@Suite("WebSocket at shutdown", .timeLimit(.minutes(1)))
struct WebSocketShutdownTests {
  @Test func shutdownSendsCloseFrame1001() throws {
    let server = try TestServer.withHTTP()
    let client = try LineClient(port: server.httpPort, readGreeting: false)
    defer { client.close() }
    // The 101 head, then the greeting as a text frame (0x81).
    let received = try client.upgradeToWebSocket()
    #expect(received.map { String(decoding: $0, as: UTF8.self).hasPrefix("HTTP/1.1 101") } == true)
    server.stop()
    #expect(client.waitForClose())
    let close: [UInt8] = [0x88, 0x02, 0x03, 0xE9]
    // What arrived before the close, kept raw by the client.
    let tail = try client.readAvailable()
    #expect(tail.starts(with: close), "\(tail)")
  }
}
