import Foundation
import TestSupport
import Testing

@testable import ObservableServer

/// Which pages may open `/ws`, asked over a real socket: `Origin` equal to `Host` is accepted
/// only when `Host` names the server by address or as `localhost`, schemes compared too,
/// plus the origins given with `--allow-origin`.
@Suite("WebSocket origin", .timeLimit(.minutes(1)))
struct WebSocketOriginTests {
  @Test func sameOriginPassesOnlyForAddressesAndLocalhost() throws {
    let server = try TestServer.withHTTP { $0.allowOrigins = ["http://dash.example:8080"] }
    defer { server.stop() }
    let port = server.httpPort
    let cases: [(host: String, origin: String?, status: Int)] = [
      // A DNS-rebinding page: its name now points at the server, so it is "same-origin".
      ("rebind.example:\(port)", "http://rebind.example:\(port)", 403),
      ("127.0.0.1:\(port)", "http://127.0.0.1:\(port)", 101),
      ("localhost:\(port)", "http://localhost:\(port)", 101),
      ("[::1]:\(port)", "http://[::1]:\(port)", 101),
      // The listener speaks plain HTTP: an https page is another origin.
      ("127.0.0.1:\(port)", "https://127.0.0.1:\(port)", 403),
      ("127.0.0.1:\(port)", "http://127.0.0.1:1\(port)", 403),
      ("127.0.0.1:\(port)", "http://evil.example", 403),
      // Listed with --allow-origin, under whatever Host.
      ("dash.example:8080", "http://dash.example:8080", 101),
      ("127.0.0.1:\(port)", "HTTP://DASH.EXAMPLE:8080/", 101),
      ("dash.example:8080", "https://dash.example:8080", 403),
      // Not a browser.
      ("rebind.example:\(port)", nil, 101),
    ]
    for (host, origin, status) in cases {
      #expect(
        try Self.upgradeStatus(server, host: host, origin: origin) == status,
        "\(host) \(origin ?? "-")")
    }
  }

  @Test func theRefusalOfAServersOwnDNSNameSaysWhatToDo() throws {
    let server = try TestServer.withHTTP()
    defer { server.stop() }
    let origin = "http://myhost.example:\(server.httpPort)"
    let answer = try server.httpExchange(
      "GET /ws HTTP/1.1\r\nHost: myhost.example:\(server.httpPort)\r\nUpgrade: websocket\r\n"
        + "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
        + "Sec-WebSocket-Version: 13\r\nOrigin: \(origin)\r\n\r\n")
    #expect(answer.hasPrefix("HTTP/1.1 403"), "\(answer)")
    #expect(answer.contains("list it with --allow-origin"), "\(answer)")
  }

  /// The status code the server answers an upgrade request with.
  private static func upgradeStatus(_ server: TestServer, host: String, origin: String?) throws
    -> Int?
  {
    let client = try LineClient(port: server.httpPort, readGreeting: false)
    defer { client.close() }
    var request =
      "GET /ws HTTP/1.1\r\nHost: \(host)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
      + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
    if let origin { request += "Origin: \(origin)\r\n" }
    try client.sendRaw(Array((request + "\r\n").utf8))
    let answer = String(decoding: try client.readAvailable(), as: UTF8.self)
    return answer.split(separator: " ").dropFirst().first.flatMap { Int($0) }
  }
}
