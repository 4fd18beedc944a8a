import XCTest

@testable import WebSocket

final class HTTPRequestHeadParserTests: XCTestCase {
  private let upgrade = Array(
    """
    GET /ws?token=a%20b&x=1 HTTP/1.1\r
    Host: example.com:8080\r
    Upgrade: websocket\r
    Connection: keep-alive, Upgrade\r
    Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r
    Sec-WebSocket-Version: 13\r
    X-Many: a\r
    x-many: b\r
    \r

    """.utf8)

  private func parse(_ text: String, cap: Int = 8192) -> HTTPRequestHeadParser.Outcome {
    var parser = HTTPRequestHeadParser(maximumHeadBytes: cap)
    return parser.parse(Array(text.utf8))
  }

  private func status(_ text: String, cap: Int = 8192) -> Int? {
    guard case .failed(let error) = parse(text, cap: cap) else { return nil }
    return error.status.code
  }

  func testParsesRequestLineHeadersAndQuery() throws {
    var parser = HTTPRequestHeadParser()
    guard case .complete(let head, let consumed) = parser.parse(upgrade) else {
      return XCTFail("head not complete")
    }
    XCTAssertEqual(consumed, upgrade.count)
    XCTAssertEqual(head.method, "GET")
    XCTAssertEqual(head.path, "/ws")
    XCTAssertEqual(head.query, "token=a%20b&x=1")
    XCTAssertEqual(head.version, .http11)
    XCTAssertEqual(head.headers["HOST"], "example.com:8080")
    XCTAssertEqual(head.headers["x-MANY"], "a, b")
    XCTAssertEqual(head.headers.tokens("connection"), ["keep-alive", "upgrade"])
    XCTAssertTrue(head.headers.contains(token: "UPGRADE", in: "Connection"))
    XCTAssertNil(head.headers["Missing"])
    XCTAssertFalse(head.wantsClose)
  }

  func testEverySplitGivesTheSameHeadAndLeavesTheRest() {
    var whole = HTTPRequestHeadParser()
    guard case .complete(let expected, _) = whole.parse(upgrade) else { return XCTFail() }
    let trailing: [UInt8] = [0x81, 0x85]
    let input = upgrade + trailing
    for split in 1..<upgrade.count {
      var parser = HTTPRequestHeadParser()
      guard case .needMore = parser.parse(input[..<split]) else {
        return XCTFail("complete too early at \(split)")
      }
      guard case .complete(let head, let consumed) = parser.parse(input[split...]) else {
        return XCTFail("not complete after split \(split)")
      }
      XCTAssertEqual(head, expected)
      XCTAssertEqual(consumed, upgrade.count - split, "split \(split)")
    }
  }

  func testParserStartsOverAfterAHead() {
    var parser = HTTPRequestHeadParser()
    let two = Array("GET /a HTTP/1.1\r\nHost: h\r\n\r\nGET /b HTTP/1.1\r\nHost: h\r\n\r\n".utf8)
    guard case .complete(let first, let consumed) = parser.parse(two) else { return XCTFail() }
    XCTAssertEqual(first.path, "/a")
    guard case .complete(let second, _) = parser.parse(two[consumed...]) else { return XCTFail() }
    XCTAssertEqual(second.path, "/b")
  }

  func testLeadingEmptyLinesAndBareLineFeedsAreAccepted() {
    guard case .complete(let head, _) = parse("\r\n\nGET / HTTP/1.0\nConnection: close\n\n") else {
      return XCTFail()
    }
    XCTAssertEqual(head.path, "/")
    XCTAssertEqual(head.version, .http10)
    XCTAssertTrue(head.wantsClose)
  }

  func testTargetForms() {
    let cases: [(String, String, String?)] = [
      ("http://example.com:80/metrics?x", "/metrics", "x"),
      ("HTTPS://example.com", "/", nil),
      ("*", "*", nil),
      ("/?", "/", ""),
    ]
    for (target, path, query) in cases {
      guard case .complete(let head, _) = parse("GET \(target) HTTP/1.1\r\nHost: h\r\n\r\n") else {
        return XCTFail(target)
      }
      XCTAssertEqual(head.path, path, target)
      XCTAssertEqual(head.query, query, target)
    }
  }

  func testMalformedHeadsAre400() {
    let heads = [
      "GET /\r\nHost: h\r\n\r\n",
      "GET  / HTTP/1.1\r\nHost: h\r\n\r\n",
      "G(T / HTTP/1.1\r\nHost: h\r\n\r\n",
      "GET ws HTTP/1.1\r\nHost: h\r\n\r\n",
      "GET /\u{7F} HTTP/1.1\r\nHost: h\r\n\r\n",
      "GET / HTTP/1.1x\r\nHost: h\r\n\r\n",
      "GET / FTP/1.1\r\nHost: h\r\n\r\n",
      "GET / HTTP/1.1\r\nHost h\r\n\r\n",
      "GET / HTTP/1.1\r\nHost : h\r\n\r\n",
      "GET / HTTP/1.1\r\nHost: h\r\n folded\r\n\r\n",
      "GET / HTTP/1.1\r\nHost: h\rX: y\r\n\r\n",
      "GET / HTTP/1.1\r\nX: a\u{01}b\r\nHost: h\r\n\r\n",
      "GET / HTTP/1.1\r\n\r\n",
      "GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n",
      "GET / HTTP/1.1\r\nHost: h\r\nContent-Length: x\r\n\r\n",
      "GET / HTTP/1.1\r\nHost: h\r\nContent-Length: 0\r\nContent-Length: 1\r\n\r\n",
    ]
    for head in heads {
      XCTAssertEqual(status(head), 400, head.debugDescription)
    }
  }

  func testOtherVersionsAre505() {
    for version in ["HTTP/2.0", "HTTP/1.2", "HTTP/0.9"] {
      XCTAssertEqual(status("GET / \(version)\r\nHost: h\r\n\r\n"), 505, version)
    }
  }

  func testChunkedBodiesAre501AndALengthIsAccepted() {
    XCTAssertEqual(status("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n"), 501)
    XCTAssertNil(status("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 12\r\n\r\n"))
    XCTAssertNil(status("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 0\r\n\r\n"))
  }

  func testHeadsPastTheCapAre431WithoutBufferingMore() {
    var parser = HTTPRequestHeadParser(maximumHeadBytes: 64)
    guard case .needMore = parser.parse(Array("GET / HTTP/1.1\r\nHost: h\r\n".utf8)) else {
      return XCTFail()
    }
    let filler = Array(repeating: UInt8(ascii: "a"), count: 1 << 20)
    guard case .failed(let error) = parser.parse(filler) else { return XCTFail() }
    XCTAssertEqual(error.status, .requestHeaderFieldsTooLarge)
    // A failed parser stays failed, even when a valid head follows.
    guard case .failed = parser.parse(Array("\r\n\r\n".utf8)) else { return XCTFail() }
    // Exactly at the cap is still accepted.
    let exact = "GET / HTTP/1.1\r\nHost: h\r\n\r\n"
    XCTAssertNil(status(exact, cap: exact.utf8.count))
    XCTAssertEqual(status(exact, cap: exact.utf8.count - 1), 431)
  }
}
