import XCTest

@testable import WebSocket

final class HTTPResponseTests: XCTestCase {
  func testWritesStatusHeadersLengthAndBody() {
    let body = Array("{\"ok\":true}".utf8)
    let response = HTTPResponse(
      status: .ok, headers: [("Content-Type", "application/json")], body: body,
      closesConnection: true)
    let text = String(decoding: response.bytes(), as: UTF8.self)
    XCTAssertEqual(
      text,
      "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: \(body.count)\r\n"
        + "Connection: close\r\n\r\n{\"ok\":true}")
    let headOnly = String(decoding: response.bytes(includingBody: false), as: UTF8.self)
    XCTAssertTrue(headOnly.hasSuffix("Content-Length: \(body.count)\r\nConnection: close\r\n\r\n"))
  }

  func testSwitchingProtocolsHasNoLength() {
    let text = String(
      decoding: HTTPResponse(status: .switchingProtocols, body: [1]).bytes(), as: UTF8.self)
    XCTAssertEqual(text, "HTTP/1.1 101 Switching Protocols\r\n\r\n")
  }

  func testLineBreaksInValuesCannotInjectFields() {
    let response = HTTPResponse(status: .notFound, headers: [("X-Reason", "a\r\nSet-Cookie: x")])
    let text = String(decoding: response.bytes(), as: UTF8.self)
    XCTAssertTrue(text.contains("X-Reason: a Set-Cookie: x\r\n"), text)
    XCTAssertEqual(text.components(separatedBy: "\r\n").count, 5, text)
  }

  func testRefusalCarriesTheParserStatus() {
    var parser = HTTPRequestHeadParser()
    guard case .failed(let error) = parser.parse(Array("GET / HTTP/3.0\r\n\r\n".utf8)) else {
      return XCTFail()
    }
    let text = String(decoding: HTTPResponse.refusing(error).bytes(), as: UTF8.self)
    XCTAssertTrue(text.hasPrefix("HTTP/1.1 505 HTTP Version Not Supported\r\n"), text)
    XCTAssertTrue(text.contains("Connection: close\r\n"), text)
  }
}
