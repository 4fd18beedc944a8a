import PeerWire
import XCTest

final class NATSDecoderTests: XCTestCase {
  func testInfoMessagesPingPongOkAndErr() throws {
    let bytes = Array(
      (#"INFO {"server_id":"x","tls_required":true}"# + "\r\n+OK\r\nMSG b 1 5\r\nq0001\r\n"
        + "MSG b 1 _INBOX.7 3\r\nabc\r\nPING\r\nPONG\r\n-ERR 'Unknown Protocol Operation'\r\n")
        .utf8)
    let (messages, used) = try PeerDialect.nats.decodeAll(bytes)
    XCTAssertEqual(
      messages,
      [
        .greeting, .other, .delivery("q0001"), .delivery("abc"), .ping, .pong,
        .refused("-ERR 'Unknown Protocol Operation'"),
      ])
    XCTAssertEqual(used, bytes.count)
  }

  func testAMessageWaitsForAllOfItsPayload() throws {
    let bytes = Array("MSG b 1 10\r\n0123\r\n6789\r\nPONG\r\n".utf8)
    XCTAssertEqual(try PeerDialect.nats.decodeAll(Array(bytes[..<20])).1, 0)
    XCTAssertEqual(
      try PeerDialect.nats.decodeInPieces(bytes, chunk: 4), [.delivery("0123\r\n6789"), .pong])
  }

  func testAMessageWithoutASizeOrWithTheWrongOneIsRefused() {
    XCTAssertThrowsError(try PeerDialect.nats.decodeAll(Array("MSG b 1 x\r\n".utf8)))
    XCTAssertThrowsError(try PeerDialect.nats.decodeAll(Array("MSG b 1 2\r\nabc\r\n".utf8)))
    XCTAssertThrowsError(try PeerDialect.nats.decodeAll(Array("HELLO\r\n".utf8)))
  }

  func testTheInfoLineSentInClearBeforeTLS() throws {
    let bytes = Array((#"INFO {"tls_required":true}"# + "\r\n\u{16}\u{03}").utf8)
    let info = try XCTUnwrap(bytes.withUnsafeBytes { NATSDecoder.info(in: $0) })
    XCTAssertEqual(info.json, #"{"tls_required":true}"#)
    XCTAssertEqual(info.length, bytes.count - 2)
    XCTAssertNil(Array("INFO {".utf8).withUnsafeBytes { NATSDecoder.info(in: $0) })
  }

  func testTheOpeningsAskForNoEchoAndTLSWhenOverTLS() {
    let subscriber = String(
      decoding: PeerDialect.nats.subscriberOpening(topic: "b", clientID: 1), as: UTF8.self)
    XCTAssertTrue(subscriber.hasSuffix("}\r\nSUB b 1\r\nPING\r\n"), subscriber)
    XCTAssertFalse(subscriber.contains("tls_required"))
    let overTLS = String(
      decoding: PeerDialect.nats.publisherOpening(clientID: 1, tls: true), as: UTF8.self)
    XCTAssertTrue(overTLS.contains(#""tls_required":true}"#), overTLS)
    let (prefix, suffix) = PeerDialect.nats.publishFraming(topic: "b", payloadBytes: 64)
    XCTAssertEqual(String(decoding: prefix, as: UTF8.self), "PUB b 64\r\n")
    XCTAssertEqual(suffix, [0x0D, 0x0A])
  }
}
