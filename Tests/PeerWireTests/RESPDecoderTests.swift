import PeerWire
import XCTest

final class RESPDecoderTests: XCTestCase {
  let subscribeReply = Array("*3\r\n$9\r\nsubscribe\r\n$1\r\nb\r\n:1\r\n".utf8)
  let message = Array("*3\r\n$7\r\nmessage\r\n$1\r\nb\r\n$5\r\nq0001\r\n".utf8)

  func testASubscriptionAMessageAReceiverCountAndPong() throws {
    let bytes = subscribeReply + message + Array(":3\r\n+PONG\r\n+OK\r\n".utf8)
    let (messages, used) = try PeerDialect.resp.decodeAll(bytes)
    XCTAssertEqual(messages, [.subscribed, .delivery("q0001"), .acknowledged, .pong, .other])
    XCTAssertEqual(used, bytes.count)
  }

  func testAPayloadHoldingCRLFIsReadByItsLength() throws {
    let bytes = Array("*3\r\n$7\r\nmessage\r\n$1\r\nb\r\n$4\r\na\r\nb\r\n".utf8)
    XCTAssertEqual(try PeerDialect.resp.decodeAll(bytes).0, [.delivery("a\r\nb")])
  }

  func testAnUnfinishedValueWaitsForTheRest() throws {
    let bytes = message + subscribeReply
    for cut in 1..<message.count {
      let (messages, used) = try PeerDialect.resp.decodeAll(Array(bytes[..<cut]))
      XCTAssertEqual(messages, [], "cut at \(cut)")
      XCTAssertEqual(used, 0, "cut at \(cut)")
    }
    XCTAssertEqual(
      try PeerDialect.resp.decodeInPieces(bytes + message, chunk: 3),
      [.delivery("q0001"), .subscribed, .delivery("q0001")])
  }

  func testAnErrorIsARefusalWithItsText() throws {
    let bytes = Array("-ERR unknown command 'FOO'\r\n".utf8)
    XCTAssertEqual(
      try PeerDialect.resp.decodeAll(bytes).0, [.refused("ERR unknown command 'FOO'")])
  }

  func testThePongOfASubscribedConnectionIsAnArray() throws {
    let bytes = Array("*2\r\n$4\r\npong\r\n$0\r\n\r\n".utf8)
    XCTAssertEqual(try PeerDialect.resp.decodeAll(bytes).0, [.pong])
  }

  func testBytesThatAreNotRESPAreRefused() {
    XCTAssertThrowsError(try PeerDialect.resp.decodeAll(Array("hello\r\n".utf8)))
    XCTAssertThrowsError(try PeerDialect.resp.decodeAll(Array("*x\r\n".utf8)))
    // A bulk string longer than it says.
    XCTAssertThrowsError(try PeerDialect.resp.decodeAll(Array("$2\r\nabc\r\n".utf8)))
  }

  func testCommandsAreArraysOfBulkStrings() {
    XCTAssertEqual(
      String(decoding: RESPCommand.encode(["SUBSCRIBE", "b"]), as: UTF8.self),
      "*2\r\n$9\r\nSUBSCRIBE\r\n$1\r\nb\r\n")
    let (prefix, suffix) = PeerDialect.resp.publishFraming(topic: "b", payloadBytes: 5)
    XCTAssertEqual(
      String(decoding: prefix + Array("hello".utf8) + suffix, as: UTF8.self),
      "*3\r\n$7\r\nPUBLISH\r\n$1\r\nb\r\n$5\r\nhello\r\n")
  }
}
