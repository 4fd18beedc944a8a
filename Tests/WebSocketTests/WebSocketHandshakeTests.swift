import XCTest

@testable import WebSocket

final class WebSocketHandshakeTests: XCTestCase {
  private let baseFields: [(String, String)] = [
    ("Host", "example.com:8080"), ("Upgrade", "websocket"), ("Connection", "keep-alive, Upgrade"),
    ("Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ=="), ("Sec-WebSocket-Version", "13"),
  ]

  private func head(
    method: String = "GET", version: HTTPVersion = .http11, replacing: [String: String?] = [:],
    adding: [(String, String)] = []
  ) -> HTTPRequestHead {
    var headers = HTTPHeaders()
    for (name, value) in baseFields {
      if let replacement = replacing[name] {
        if let replacement { headers.append(name: name, value: replacement) }
      } else {
        headers.append(name: name, value: value)
      }
    }
    for (name, value) in adding { headers.append(name: name, value: value) }
    return HTTPRequestHead(
      method: method, target: "/ws", path: "/ws", query: nil, version: version, headers: headers)
  }

  private func refusal(_ head: HTTPRequestHead) -> HTTPResponse? {
    do {
      _ = try WebSocketHandshake(head)
      return nil
    } catch {
      return error.response
    }
  }

  func testAcceptsAndAnswers101() throws {
    let handshake = try WebSocketHandshake(head(), deflate: .disabled)
    XCTAssertEqual(handshake.accept, "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
    XCTAssertNil(handshake.deflate)
    let text = String(decoding: handshake.response().bytes(), as: UTF8.self)
    XCTAssertEqual(
      text,
      "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        + "Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n\r\n")
  }

  func testRefusals() {
    let cases: [(String, HTTPRequestHead, Int)] = [
      ("POST", head(method: "POST"), 405),
      ("HTTP/1.0", head(version: .http10), 400),
      ("no Upgrade", head(replacing: ["Upgrade": nil]), 426),
      ("Upgrade: h2c", head(replacing: ["Upgrade": "h2c"]), 426),
      ("Connection without upgrade", head(replacing: ["Connection": "keep-alive"]), 400),
      ("no version", head(replacing: ["Sec-WebSocket-Version": nil]), 426),
      ("version 8", head(replacing: ["Sec-WebSocket-Version": "8"]), 426),
      ("no key", head(replacing: ["Sec-WebSocket-Key": nil]), 400),
      ("short key", head(replacing: ["Sec-WebSocket-Key": "c2hvcnQ="]), 400),
      ("key not base64", head(replacing: ["Sec-WebSocket-Key": "not base64 at all!!!!!=="]), 400),
      ("two keys", head(adding: [("Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ==")]), 400),
    ]
    for (name, request, status) in cases {
      let response = refusal(request)
      XCTAssertEqual(response?.status.code, status, name)
      XCTAssertEqual(response?.closesConnection, true, name)
    }
    let versionRefusal = refusal(head(replacing: ["Sec-WebSocket-Version": "8"]))
    XCTAssertTrue(
      versionRefusal?.headers.contains(HTTPHeaderField(name: "Sec-WebSocket-Version", value: "13"))
        == true)
    let methodRefusal = refusal(head(method: "PUT"))
    XCTAssertTrue(
      methodRefusal?.headers.contains(HTTPHeaderField(name: "Allow", value: "GET")) == true)
  }

  func testOriginIsExposedAndComparedWithHost() throws {
    let cases: [(String?, Bool)] = [
      (nil, false),
      ("http://example.com:8080", true),
      ("HTTP://EXAMPLE.COM:8080", true),
      // The listener speaks plain HTTP: an https page is another origin.
      ("https://example.com:8080", false),
      ("http://example.com", false),
      ("http://evil.com:8080", false),
      ("http://example.com:8080.evil.com", false),
      ("null", false),
      ("file://example.com:8080", false),
    ]
    for (origin, same) in cases {
      let request = head(adding: origin.map { [("Origin", $0)] } ?? [])
      let handshake = try WebSocketHandshake(request)
      XCTAssertEqual(handshake.origin, origin)
      XCTAssertEqual(handshake.isSameOrigin, same, origin ?? "none")
    }
    XCTAssertTrue(RequestOrigin.matches("http://localhost", host: "localhost:80"))
    XCTAssertTrue(RequestOrigin.matches("https://[::1]:8443", host: "[::1]:8443", scheme: "https"))
    XCTAssertFalse(RequestOrigin.matches("https://[::1]:8443", host: "[::1]:8443"))
    XCTAssertFalse(RequestOrigin.matches("http://[::1]:8443", host: "[::1]:8443", scheme: "https"))
    XCTAssertFalse(RequestOrigin.matches("https://[::1]:8443", host: "[::1]", scheme: "https"))
    XCTAssertFalse(RequestOrigin.matches("http://a:x", host: "a"))
  }

  func testOnlyAddressesAndLocalhostAreRebindingProof() {
    for host in [
      "127.0.0.1", "127.0.0.1:8080", "LOCALHOST:1", "[::1]:80", "[fe80::1]", "10.0.0.255",
    ] {
      XCTAssertTrue(RequestOrigin.isRebindingProof(host: host), host)
    }
    for host in [
      "example.com:8080", "localhost.example.com", "127.0.0.1.nip.io", "1.2.3", "1.2.3.256",
      "1.2.3.4.5", "[]", "[example]", "", "a.localhost", "0x7f.0.0.1", "127.0.0.1:x",
    ] {
      XCTAssertFalse(RequestOrigin.isRebindingProof(host: host), host)
    }
  }

  func testOriginPolicy() throws {
    XCTAssertTrue(try WebSocketHandshake(head()).isOriginAllowed(by: []))
    // Same-origin under a DNS name is what a rebinding page looks like: refused.
    let same = try WebSocketHandshake(head(adding: [("Origin", "http://example.com:8080")]))
    XCTAssertTrue(same.isSameOrigin)
    XCTAssertFalse(same.isOriginAllowed(by: []))
    XCTAssertTrue(same.isOriginAllowed(by: ["http://example.com:8080"]))
    let local = try WebSocketHandshake(
      head(replacing: ["Host": "127.0.0.1:8080"], adding: [("Origin", "http://127.0.0.1:8080")]))
    XCTAssertTrue(local.isOriginAllowed(by: []))
    let other = try WebSocketHandshake(head(adding: [("Origin", "https://Dash.Example.org")]))
    XCTAssertFalse(other.isOriginAllowed(by: []))
    XCTAssertFalse(other.isOriginAllowed(by: ["https://dash.example.org:8443"]))
    XCTAssertTrue(other.isOriginAllowed(by: ["http://x", "https://dash.example.org/"]))
  }
}
