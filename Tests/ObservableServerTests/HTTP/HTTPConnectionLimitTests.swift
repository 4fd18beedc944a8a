import Foundation
import TestSupport
import Testing

@testable import ObservableServer

/// HTTP connections (WebSocket ones included, since they come through the HTTP port) have
/// their own limit, `--max-http-connections`, so that clients sending request heads slowly
/// cannot take the line protocol's `--max-connections` slots; and a head not complete within
/// the head timeout is answered with 408 and closed.
@Suite("HTTP connection limit", .timeLimit(.minutes(1)))
struct HTTPConnectionLimitTests {
  /// A request head never finished, as a slowloris client sends it.
  private static let partialHead = Array("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-a: ".utf8)

  @Test func slowHTTPClientsLeaveTheLineProtocolItsSlots() throws {
    let server = try TestServer.withHTTP {
      $0.maxConnections = 8
      $0.httpHeadTimeout = .seconds(30)
    }
    var slow: [LineClient] = []
    defer { for client in slow { client.close() } }
    for _ in 0..<24 {
      let client = try LineClient(port: server.httpPort, readGreeting: false)
      try client.sendRaw(Self.partialHead)
      slow.append(client)
    }
    // Every slow client is in before the line clients come (on main only 8 ever were).
    _ = eventually(timeout: .seconds(2)) { server.server.connectionCount >= 24 }
    var line: [LineClient] = []
    defer { for client in line { client.close() } }
    for _ in 0..<8 {
      let client = try server.connect()
      #expect(client.greeting["hello"] as? String == "observable-server", "\(client.greeting)")
      line.append(client)
    }
    for client in line {
      #expect((try? client.request("ping"))?["ok"] as? Bool == true)
    }
    // The slow clients still wait: the limit refused none of them.
    #expect(eventually { server.server.connectionCount == 32 })
  }

  @Test func aStalledHeadIsAnswered408AndClosedAfterTheTimeout() throws {
    let server = try TestServer.withHTTP { $0.httpHeadTimeout = .seconds(1) }
    let client = try LineClient(port: server.httpPort, readGreeting: false)
    defer { client.close() }
    let start = ContinuousClock.now
    try client.sendRaw(Self.partialHead)
    let ending = client.readToEnd(timeout: .seconds(10))
    #expect(ending.isOrderly)
    #expect(ending.text.hasPrefix("HTTP/1.1 408"), "\(ending.text.prefix(100))")
    #expect(ContinuousClock.now - start < .seconds(5))
    // The server half-closed after the 408 and closes once the client does.
    client.close()
    #expect(eventually { server.server.connectionCount == 0 })
  }

  @Test func pastTheHTTPLimitAnHTTPClientGets503AndLineClientsStillConnect() throws {
    let server = try TestServer.withHTTP {
      $0.maxConnections = 2
      $0.maxHTTPConnections = 2
      $0.httpHeadTimeout = .seconds(30)
    }
    // A WebSocket holds an HTTP slot for its whole life.
    let socket = try LineClient(port: server.httpPort, readGreeting: false)
    defer { socket.close() }
    let received = try socket.upgradeToWebSocket()
    #expect(received.map { String(decoding: $0, as: UTF8.self).hasPrefix("HTTP/1.1 101") } == true)
    let slow = try LineClient(port: server.httpPort, readGreeting: false)
    defer { slow.close() }
    try slow.sendRaw(Self.partialHead)
    #expect(eventually { server.server.connectionCount == 2 })
    let refused = try LineClient(port: server.httpPort, readGreeting: false)
    defer { refused.close() }
    let ending = refused.readToEnd()
    #expect(ending.ended)
    #expect(ending.text.hasPrefix("HTTP/1.1 503"), "\(ending.text.prefix(100))")
    let lineClients = try (0..<2).map { _ in try server.connect() }
    defer { for client in lineClients { client.close() } }
    for client in lineClients {
      #expect(try client.request("ping")["ok"] as? Bool == true)
    }
    // The line protocol keeps its own limit.
    let third = try server.connect()
    defer { third.close() }
    let code = (third.greeting["error"] as? [String: Any])?["code"] as? String
    #expect(code == "too_many_connections", "\(third.greeting)")
  }
}
