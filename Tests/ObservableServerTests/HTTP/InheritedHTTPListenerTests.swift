import Foundation
import TestSupport
import Testing

@testable import ObservablePOSIX
@testable import ObservableServer

/// A socket the service manager hands over under the name `http` is served as HTTP.
@Suite("HTTP from socket activation", .timeLimit(.minutes(1)))
struct InheritedHTTPListenerTests {
  @Test func aSocketNamedHTTPServesHTTPAndOthersTheLineProtocol() throws {
    let http = try SocketCalls.listen(on: .tcp(host: "127.0.0.1", port: 0), backlog: 16)
    let lines = try SocketCalls.listen(on: .tcp(host: "127.0.0.1", port: 0), backlog: 16)
    let httpPort = try #require(SocketCalls.boundPort(http))
    let linePort = try #require(SocketCalls.boundPort(lines))
    let server = try TestServer {
      $0.listen = []
      $0.inheritedListeners = [
        InheritedListener(descriptor: http, name: "http"),
        InheritedListener(descriptor: lines, name: "tcp"),
      ]
    }
    defer { server.stop() }
    let client = try LineClient(port: httpPort, readGreeting: false)
    defer { client.close() }
    try client.sendRaw(Array("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
    #expect(client.waitForClose())
    #expect(HTTPEndpointTests.status(client.unreadText) == 200)
    let lineClient = try LineClient(port: linePort)
    defer { lineClient.close() }
    #expect(try lineClient.request(#"{"op":"ping"}"#)["ok"] as? Bool == true)
  }
}
