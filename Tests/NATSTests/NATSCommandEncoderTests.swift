import Foundation
import XCTest

@testable import NATS

/// The bytes of every client command, and the refusals that keep the connection alive.
final class NATSCommandEncoderTests: XCTestCase {
  private func text(_ body: (inout [UInt8]) throws -> Void) rethrows -> String {
    var output: [UInt8] = Array("before|".utf8)
    try body(&output)
    return String(decoding: output, as: UTF8.self)
  }

  func testConnectCarriesTheRequiredFlagsAndCredentials() throws {
    let encoder = NATSCommandEncoder()
    let line = text {
      encoder.connect(NATSConnectOptions(name: "node-a", version: "2.0"), into: &$0)
    }
    XCTAssertTrue(line.hasPrefix("before|CONNECT {"))
    XCTAssertTrue(line.hasSuffix("}\r\n"))
    let json =
      try JSONSerialization.jsonObject(
        with: Data(line.dropFirst("before|CONNECT ".count).utf8)) as? [String: Any]
    XCTAssertEqual(json?["verbose"] as? Bool, false)
    XCTAssertEqual(json?["pedantic"] as? Bool, false)
    XCTAssertEqual(json?["headers"] as? Bool, true)
    XCTAssertEqual(json?["no_responders"] as? Bool, true)
    XCTAssertEqual(json?["echo"] as? Bool, false)
    XCTAssertEqual(json?["protocol"] as? Int, 1)
    XCTAssertEqual(json?["name"] as? String, "node-a")
    XCTAssertEqual(json?["lang"] as? String, "swift")
    XCTAssertEqual(json?["version"] as? String, "2.0")
    XCTAssertNil(json?["user"])
    XCTAssertNil(json?["auth_token"])

    let withUser = text {
      encoder.connect(
        NATSConnectOptions(name: "n", credentials: .user(name: "u\"1", password: "p/w")), into: &$0)
    }
    XCTAssertTrue(withUser.contains(#""user":"u\"1""#), withUser)
    XCTAssertTrue(withUser.contains(#""pass":"p/w""#), withUser)
    let withToken = text {
      encoder.connect(NATSConnectOptions(name: "n", credentials: .token("s3cret")), into: &$0)
    }
    XCTAssertTrue(withToken.contains(#""auth_token":"s3cret""#), withToken)
  }

  func testPublishSubscribeAndPings() throws {
    let encoder = NATSCommandEncoder()
    XCTAssertEqual(
      try text { try encoder.publish(subject: "obs.room.1", payload: Array("hi".utf8), into: &$0) },
      "before|PUB obs.room.1 2\r\nhi\r\n")
    XCTAssertEqual(
      try text {
        try encoder.publish(subject: "a", replyTo: "_INBOX.x.1", payload: [UInt8](), into: &$0)
      },
      "before|PUB a _INBOX.x.1 0\r\n\r\n")
    var headers = NATSHeaders()
    headers.append(name: "Nats-Msg-Id", value: "42")
    XCTAssertEqual(
      try text {
        try encoder.publish(
          subject: "a", replyTo: "r", headers: headers, payload: Array("xyz".utf8), into: &$0)
      },
      "before|HPUB a r 29 32\r\nNATS/1.0\r\nNats-Msg-Id: 42\r\n\r\nxyz\r\n")
    XCTAssertEqual(
      try text { try encoder.subscribe(subject: "obs.>", sid: 12, into: &$0) },
      "before|SUB obs.> 12\r\n")
    XCTAssertEqual(
      try text { try encoder.subscribe(subject: "q.*", queueGroup: "workers", sid: 3, into: &$0) },
      "before|SUB q.* workers 3\r\n")
    XCTAssertEqual(text { encoder.unsubscribe(sid: 12, into: &$0) }, "before|UNSUB 12\r\n")
    XCTAssertEqual(
      text { encoder.unsubscribe(sid: 7, afterMessages: 100, into: &$0) }, "before|UNSUB 7 100\r\n")
    XCTAssertEqual(text { encoder.ping(into: &$0) }, "before|PING\r\n")
    XCTAssertEqual(text { encoder.pong(into: &$0) }, "before|PONG\r\n")
  }

  func testPayloadOverMaxPayloadIsRefusedAndNothingAppended() {
    let encoder = NATSCommandEncoder(maxPayload: 10)
    var output: [UInt8] = [1, 2]
    XCTAssertNoThrow(
      try encoder.publish(subject: "a", payload: [UInt8](repeating: 0, count: 10), into: &output))
    output = [1, 2]
    XCTAssertThrowsError(
      try encoder.publish(subject: "a", payload: [UInt8](repeating: 0, count: 11), into: &output)
    ) {
      XCTAssertEqual($0 as? NATSCommandError, .payloadTooLarge(size: 11, maxPayload: 10))
    }
    // Headers count towards max_payload: the 12-byte block and 1 byte of payload exceed 10.
    XCTAssertThrowsError(
      try encoder.publish(
        subject: "a", headers: NATSHeaders(), payload: [UInt8](repeating: 0, count: 1),
        into: &output)
    ) {
      XCTAssertEqual($0 as? NATSCommandError, .payloadTooLarge(size: 13, maxPayload: 10))
    }
    XCTAssertEqual(output, [1, 2])
  }

  func testSubjectsThatWouldBreakTheProtocolAreRefused() {
    let encoder = NATSCommandEncoder()
    for subject in ["", "a b", "a\r\nPUB x 1", "a\tb", ".a", "a.", "a..b", "a\u{7F}"] {
      var output: [UInt8] = []
      XCTAssertThrowsError(try encoder.publish(subject: subject, payload: [UInt8](), into: &output))
      {
        XCTAssertEqual($0 as? NATSCommandError, .invalidSubject(subject))
      }
      XCTAssertThrowsError(try encoder.subscribe(subject: subject, sid: 1, into: &output))
      XCTAssertThrowsError(
        try encoder.publish(subject: "ok", replyTo: subject, payload: [UInt8](), into: &output))
      XCTAssertEqual(output, [])
    }
    var output: [UInt8] = []
    XCTAssertThrowsError(
      try encoder.subscribe(subject: "a", queueGroup: "g 1", sid: 1, into: &output))
    XCTAssertNoThrow(try encoder.subscribe(subject: "héllo.*.>", sid: 1, into: &output))
  }

  func testHeadersThatWouldBreakTheBlockAreRefused() {
    let encoder = NATSCommandEncoder()
    for (name, value) in [("", "v"), ("a:b", "v"), ("a b", "v"), ("ok", "x\r\nEvil: 1")] {
      var output: [UInt8] = []
      XCTAssertThrowsError(
        try encoder.publish(
          subject: "a", headers: NATSHeaders(fields: [.init(name: name, value: value)]),
          payload: [UInt8](),
          into: &output)
      ) { XCTAssertEqual($0 as? NATSCommandError, .invalidHeader(name)) }
      XCTAssertEqual(output, [])
    }
  }

  func testEncodedCommandsParseBackAsTheServerWouldSendThem() throws {
    // A server echoes a PUB as a MSG with the same layout; the parser must read what we write.
    let encoder = NATSCommandEncoder()
    var output: [UInt8] = []
    var headers = NATSHeaders()
    headers.append(name: "K", value: "v")
    try encoder.publish(
      subject: "s", replyTo: "r", headers: headers, payload: Array("body".utf8), into: &output)
    let command = String(decoding: output, as: UTF8.self)
    XCTAssertTrue(command.hasPrefix("HPUB s r "))
    var parser = NATSProtocolParser()
    parser.append(Array(("HMSG s 1 r " + command.dropFirst("HPUB s r ".count)).utf8))
    XCTAssertEqual(
      try parser.next(),
      .message(
        NATSMessage(
          subject: "s", sid: 1, replyTo: "r", headers: headers, payload: Array("body".utf8)[...])))
  }
}
