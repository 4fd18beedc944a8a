import Foundation
import TestSupport
import Testing
import WebSocket

@testable import ObservableHTTP
@testable import ObservableServer

/// The HTTP side of `--http` against raw requests: the routes, and bad input of every kind
/// answered with the right status and a close.
@Suite("HTTP endpoints", .timeLimit(.minutes(1)))
struct HTTPEndpointTests {
  /// The status code on the first line of `response`, or nil when there is none.
  static func status(_ response: String) -> Int? {
    let parts = response.split(separator: " ", maxSplits: 2)
    guard parts.count >= 2, parts[0].hasPrefix("HTTP/1.") else { return nil }
    return Int(parts[1])
  }

  static func get(_ path: String, method: String = "GET", headers: String = "") -> String {
    "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n\(headers)\r\n"
  }

  @Test func theRoutesAnswerAndClose() throws {
    let server = try TestServer.withHTTP()
    defer { server.stop() }
    let page = try server.httpExchange(Self.get("/"))
    #expect(Self.status(page) == 200)
    #expect(page.contains("Content-Security-Policy: \(LivePage.securityPolicy)"))
    #expect(page.hasSuffix(LivePage.html))
    let head = try server.httpExchange(Self.get("/", method: "HEAD"))
    #expect(Self.status(head) == 200 && !head.contains("<html"))
    let health = try server.httpExchange(Self.get("/healthz"))
    #expect(Self.status(health) == 200 && health.contains(#""status":"ok""#))
    #expect(Self.status(try server.httpExchange(Self.get("/nothing-here"))) == 404)
    let post = try server.httpExchange(Self.get("/metrics", method: "POST"))
    #expect(Self.status(post) == 405 && post.contains("Allow: GET, HEAD"))
    #expect(server.server.counters.snapshot.httpRequestsTotal == 5)
  }

  @Test func badHeadsAreRefused() throws {
    let server = try TestServer.withHTTP()
    defer { server.stop() }
    #expect(Self.status(try server.httpExchange("this is not HTTP at all\r\n\r\n")) == 400)
    #expect(Self.status(try server.httpExchange("\u{1}\u{2}\u{3}\r\n\r\n")) == 400)
    let huge = "GET / HTTP/1.1\r\nX-Padding: " + String(repeating: "a", count: 9000) + "\r\n\r\n"
    #expect(Self.status(try server.httpExchange(huge)) == 431)
    #expect(Self.status(try server.httpExchange("GET / HTTP/2.0\r\n\r\n")) == 505)
    // Nothing but `/ws` upgrades, and only with every header the handshake needs.
    let plain = try server.httpExchange(Self.get("/ws"))
    #expect(Self.status(plain) == 426)
    let noKey = try server.httpExchange(
      Self.get(
        "/ws", headers: "Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
      ))
    #expect(Self.status(noKey) == 400)
    let upgradeByPost = try server.httpExchange(Self.get("/ws", method: "POST"))
    #expect(Self.status(upgradeByPost) == 405)
  }

  @Test func aSlowHeadGets408() throws {
    let server = try TestServer.withHTTP { $0.httpHeadTimeout = .milliseconds(300) }
    defer { server.stop() }
    let started = ContinuousClock.now
    let response = try server.httpExchange("GET / HTTP/1.1\r\nHost: x\r\n")
    #expect(Self.status(response) == 408)
    #expect(ContinuousClock.now - started < .seconds(3))
  }

  @Test func crossOriginUpgradesNeedAllowing() throws {
    let server = try TestServer.withHTTP { $0.allowOrigins = ["https://dash.example"] }
    defer { server.stop() }
    let upgrade =
      "Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
      + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
    func answer(_ origin: String?) throws -> Int? {
      let client = try LineClient(port: server.httpPort, readGreeting: false)
      defer { client.close() }
      let originLine = origin.map { "Origin: \($0)\r\n" } ?? ""
      let request =
        "GET /ws HTTP/1.1\r\nHost: 127.0.0.1:\(server.httpPort)\r\n\(upgrade)\(originLine)\r\n"
      try client.sendRaw(Array(request.utf8))
      return Self.status(String(decoding: try client.readAvailable(), as: UTF8.self))
    }
    #expect(try answer("https://evil.example") == 403)
    #expect(try answer(nil) == 101)
    #expect(try answer("http://127.0.0.1:\(server.httpPort)") == 101)
    #expect(try answer("https://dash.example") == 101)
  }

  @Test func metricsParseAndAgreeWithStats() throws {
    let server = try TestServer.withHTTP()
    defer { server.stop() }
    let subscriber = try server.connect()
    defer { subscriber.close() }
    _ = try subscriber.request(#"{"op":"subscribe","stream":"metrics.topic"}"#)
    for value in 0..<3 {
      _ = try subscriber.request(#"{"op":"publish","stream":"metrics.topic","value":\#(value)}"#)
    }
    // Read first: its own subscribe to `stats` then counts in both.
    let stats = try server.stats()
    let output = try PythonScript(name: "prometheus_parse.py").run(
      ["--url", "http://127.0.0.1:\(server.httpPort)/metrics"], importing: "prometheus_client")
    let families = try #require(try JSONSerialization.jsonObject(with: output) as? [[String: Any]])
    var values: [String: Double] = [:]
    for family in families {
      for sample in family["samples"] as? [[String: Any]] ?? [] {
        if let name = sample["name"] as? String, let value = sample["value"] as? Double {
          values[name] = value
        }
      }
    }
    for (metric, field) in [
      ("observable_server_subscribes_total", "subscribes_total"),
      ("observable_server_published_total", "published_total"),
      ("observable_server_delivered_total", "delivered_total"),
      ("observable_server_websocket_connections_total", "websocket_connections_total"),
    ] {
      #expect(values[metric].map(Int.init) == stats[field] as? Int, "\(metric)")
    }
    // The scrape's own connection and the subscriber were open during the scrape; the stats
    // connection may still be closing.
    #expect([2, 3].contains(values["observable_server_connections_open"]))
    #expect(values["observable_server_http_requests_total"] == 1)
  }

  @Test func healthSays503OnceShutdownBegins() throws {
    let server = try TestServer.withHTTP()
    defer { server.stop() }
    let router = HTTPRouter(
      allowOrigins: [], counters: server.server.counters, isServing: { false })
    var parser = HTTPRequestHeadParser()
    guard case .complete(let head, _) = parser.parse(Array(Self.get("/healthz").utf8)) else {
      Issue.record("the request did not parse")
      return
    }
    guard case .respond(let response, _) = router.route(head) else {
      Issue.record("not a response")
      return
    }
    #expect(response.status.code == 503)
    #expect(String(decoding: response.body, as: UTF8.self).contains("shutting down"))
  }
}
