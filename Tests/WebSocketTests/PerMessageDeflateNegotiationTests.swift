import XCTest

@testable import WebSocket

final class PerMessageDeflateNegotiationTests: XCTestCase {
  private func negotiate(
    _ fields: [String], policy: PerMessageDeflatePolicy = PerMessageDeflatePolicy()
  ) -> PerMessageDeflateParameters? {
    var headers = HTTPHeaders()
    for field in fields { headers.append(name: "Sec-WebSocket-Extensions", value: field) }
    return PerMessageDeflateParameters.negotiate(
      offers: WebSocketExtensionOffer.offers(in: headers), policy: policy)
  }

  func testChromiumOffer() throws {
    let agreed = try XCTUnwrap(negotiate(["permessage-deflate; client_max_window_bits"]))
    XCTAssertEqual(agreed.responseValue, "permessage-deflate")
    XCTAssertFalse(agreed.serverNoContextTakeover)
    XCTAssertFalse(agreed.clientNoContextTakeover)
    XCTAssertEqual(agreed.serverMaxWindowBits, 15)
    XCTAssertEqual(agreed.clientMaxWindowBits, 15)
  }

  func testPythonWebsocketsOfferWithEveryParameter() throws {
    let agreed = try XCTUnwrap(
      negotiate([
        "permessage-deflate; server_no_context_takeover; client_no_context_takeover; "
          + "server_max_window_bits=10; client_max_window_bits"
      ]))
    XCTAssertEqual(
      agreed.responseValue,
      "permessage-deflate; server_no_context_takeover; client_no_context_takeover; "
        + "server_max_window_bits=10")
    XCTAssertTrue(agreed.serverNoContextTakeover)
    XCTAssertTrue(agreed.clientNoContextTakeover)
    XCTAssertEqual(agreed.serverMaxWindowBits, 10)
    XCTAssertEqual(agreed.deflateWindowBits, 10)
  }

  func testWindowBitsValuesAndPolicy() throws {
    let quoted = try XCTUnwrap(negotiate(["permessage-deflate; client_max_window_bits=\"10\""]))
    XCTAssertEqual(quoted.responseValue, "permessage-deflate; client_max_window_bits=10")
    XCTAssertEqual(quoted.clientMaxWindowBits, 10)
    let eight = try XCTUnwrap(negotiate(["permessage-deflate; server_max_window_bits=8"]))
    XCTAssertEqual(eight.responseValue, "permessage-deflate; server_max_window_bits=8")
    XCTAssertEqual(eight.deflateWindowBits, 9)
    let policy = PerMessageDeflatePolicy(
      serverMaxWindowBits: 11, serverNoContextTakeover: true, clientMaxWindowBits: 12)
    let limited = try XCTUnwrap(
      negotiate(
        ["permessage-deflate; server_max_window_bits=13; client_max_window_bits"], policy: policy))
    XCTAssertEqual(
      limited.responseValue,
      "permessage-deflate; server_no_context_takeover; server_max_window_bits=11; "
        + "client_max_window_bits=12")
    XCTAssertEqual(limited.clientMaxWindowBits, 12)
    // Without an offer of the parameter the policy's window stays silent but still applies.
    let silent = try XCTUnwrap(negotiate(["permessage-deflate"], policy: policy))
    XCTAssertEqual(silent.responseValue, "permessage-deflate; server_no_context_takeover")
    XCTAssertEqual(silent.serverMaxWindowBits, 11)
    XCTAssertEqual(silent.clientMaxWindowBits, 15)
  }

  func testLeanPolicyAsksForSmallWindowsOnlyWhereItMay() throws {
    let chromium = try XCTUnwrap(
      negotiate(["permessage-deflate; client_max_window_bits"], policy: .lean))
    XCTAssertEqual(chromium.responseValue, "permessage-deflate; client_max_window_bits=12")
    XCTAssertEqual(chromium.clientMaxWindowBits, 12)
    XCTAssertEqual(chromium.deflateWindowBits, 12)
    XCTAssertEqual(chromium.memoryLevel, 5)
    let bare = try XCTUnwrap(negotiate(["permessage-deflate"], policy: .lean))
    XCTAssertEqual(bare.responseValue, "permessage-deflate")
    XCTAssertEqual(bare.clientMaxWindowBits, 15)
    XCTAssertEqual(bare.deflateWindowBits, 12)
  }

  func testMalformedOffersAreDeclinedAndTheNextIsTaken() throws {
    let bad = [
      "permessage-deflate; server_max_window_bits",
      "permessage-deflate; server_max_window_bits=7",
      "permessage-deflate; server_max_window_bits=16",
      "permessage-deflate; server_max_window_bits=010",
      "permessage-deflate; client_max_window_bits=abc",
      "permessage-deflate; server_no_context_takeover=1",
      "permessage-deflate; client_no_context_takeover; client_no_context_takeover",
      "permessage-deflate; client_max_window_bits; client_max_window_bits=9",
      "permessage-deflate; unknown_parameter",
      "permessage-deflate; client_max_window_bits=\"1 0\"",
      "permessage-deflate; =10",
    ]
    for offer in bad {
      XCTAssertNil(negotiate([offer]), offer)
      let fallback = negotiate([offer + ", permessage-deflate; client_no_context_takeover"])
      XCTAssertEqual(
        fallback?.responseValue, "permessage-deflate; client_no_context_takeover", offer)
    }
    XCTAssertNil(negotiate(["x-webkit-deflate-frame", "foo; bar=1"]))
    XCTAssertNil(negotiate(["permessage-deflate"], policy: .disabled))
    // Offers spread over repeated fields keep their order.
    let second = negotiate(["foo", "permessage-deflate; server_no_context_takeover"])
    XCTAssertEqual(second?.serverNoContextTakeover, true)
  }

  func testHandshakeAnswersWithTheNegotiatedExtension() throws {
    var headers = HTTPHeaders()
    for (name, value) in [
      ("Host", "h"), ("Upgrade", "websocket"), ("Connection", "Upgrade"),
      ("Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ=="), ("Sec-WebSocket-Version", "13"),
      ("Sec-WebSocket-Extensions", "permessage-deflate; client_max_window_bits"),
    ] {
      headers.append(name: name, value: value)
    }
    let request = HTTPRequestHead(
      method: "GET", target: "/ws", path: "/ws", query: nil, version: .http11, headers: headers)
    let handshake = try WebSocketHandshake(request)
    let text = String(decoding: handshake.response().bytes(), as: UTF8.self)
    XCTAssertTrue(text.contains("\r\nSec-WebSocket-Extensions: permessage-deflate\r\n"), text)
    let declined = try WebSocketHandshake(request, deflate: .disabled)
    XCTAssertFalse(
      String(decoding: declined.response().bytes(), as: UTF8.self).contains("Extensions"))
  }
}
