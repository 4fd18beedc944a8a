import PeerWire
import XCTest

final class JSONLineDecoderTests: XCTestCase {
  func testHelloRepliesAndDeliveriesOfTheStream() throws {
    let text = """
      {"hello":"observable-server","version":"1.2.0","protocol":1}
      {"ok":true,"op":"subscribe","id":1,"stream":"b"}
      {"stream":"b","value":"q0001"}
      {"stream":"other","value":"q0002"}
      {"ok":true,"op":"publish","receivers":1}
      {"ok":false,"error":"slow"}

      """
    let (messages, used) = try PeerDialect.jsonLines.decodeAll(Array(text.utf8))
    XCTAssertEqual(
      messages,
      [
        .greeting, .subscribed, .delivery("q0001"), .other, .acknowledged,
        .refused(#"{"ok":false,"error":"slow"}"#),
      ])
    XCTAssertEqual(used, text.utf8.count)
  }

  func testAnUnfinishedLineWaits() throws {
    let bytes = Array(#"{"stream":"b","value":"q0001"}"#.utf8)
    XCTAssertEqual(try PeerDialect.jsonLines.decodeAll(bytes).1, 0)
    XCTAssertEqual(
      try PeerDialect.jsonLines.decodeInPieces(bytes + [0x0A], chunk: 7), [.delivery("q0001")])
  }

  func testADeliveryOfAnotherShapeOrALineThatIsNotJSONIsRefused() {
    XCTAssertThrowsError(
      try PeerDialect.jsonLines.decodeAll(Array("{\"stream\":\"b\",\"value\":\"x\n".utf8)))
    XCTAssertThrowsError(try PeerDialect.jsonLines.decodeAll(Array("hello\n".utf8)))
  }

  func testOpeningsAndPublishFraming() {
    XCTAssertEqual(
      String(
        decoding: PeerDialect.jsonLines.subscriberOpening(topic: "b", clientID: 0), as: UTF8.self),
      "{\"op\":\"subscribe\",\"stream\":\"b\",\"id\":1}\n")
    let (prefix, suffix) = PeerDialect.jsonLines.publishFraming(topic: "b", payloadBytes: 3)
    XCTAssertEqual(
      String(decoding: prefix + Array("abc".utf8) + suffix, as: UTF8.self),
      "{\"op\":\"publish\",\"stream\":\"b\",\"value\":\"abc\"}\n")
  }
}
