import XCTest

@testable import NATS

/// The parser on every server verb, with input split at every byte position.
final class NATSProtocolParserTests: XCTestCase {
  /// A stream holding every verb, and the operations it must give.
  private static let stream: (bytes: [UInt8], expected: [NATSServerOperation]) = {
    var bytes: [UInt8] = []
    var expected: [NATSServerOperation] = []
    func add(_ text: String, _ operation: NATSServerOperation) {
      bytes += Array(text.utf8)
      expected.append(operation)
    }
    add(
      "INFO {\"server_id\":\"S1\",\"max_payload\":2048,\"headers\":true,\"connect_urls\":[\"10.0.0.2:4222\"]}\r\n",
      .info(NATSServerInfo(serverID: "S1", maxPayload: 2048, connectURLs: ["10.0.0.2:4222"])))
    add("PING\r\n", .ping)
    add("pong\r\n", .pong)
    add("+OK\r\n", .ok)
    add("-ERR 'Unknown Protocol Operation'\r\n", .error("Unknown Protocol Operation"))
    add(
      "MSG room.1 7 5\r\nhello\r\n",
      .message(NATSMessage(subject: "room.1", sid: 7, payload: [104, 101, 108, 108, 111])))
    add(
      "MSG a.b 8 _INBOX.x.1 0\r\n\r\n",
      .message(NATSMessage(subject: "a.b", sid: 8, replyTo: "_INBOX.x.1")))
    add(
      "MSG\tc 9  3\r\n\r\n\n\r\n",
      .message(NATSMessage(subject: "c", sid: 9, payload: [13, 10, 10])))
    let block = "NATS/1.0\r\nNats-Subject: obs.x\r\nNats-Sequence:  42 \r\n\r\n"
    add(
      "HMSG _INBOX.x.2 3 \(block.utf8.count) \(block.utf8.count + 2)\r\n\(block)hi\r\n",
      .message(
        NATSMessage(
          subject: "_INBOX.x.2", sid: 3,
          headers: NATSHeaders(fields: [
            .init(name: "Nats-Subject", value: "obs.x"), .init(name: "Nats-Sequence", value: "42"),
          ]), payload: [104, 105])))
    add(
      "HMSG _INBOX.x.3 3 reply.to 16 16\r\nNATS/1.0 503\r\n\r\n\r\n",
      .message(
        NATSMessage(
          subject: "_INBOX.x.3", sid: 3, replyTo: "reply.to", headers: NATSHeaders(status: 503))))
    let notFound = "NATS/1.0 404 Message Not Found\r\n\r\n"
    add(
      "HMSG _INBOX.x.4 3 \(notFound.utf8.count) \(notFound.utf8.count)\r\n\(notFound)\r\n",
      .message(
        NATSMessage(
          subject: "_INBOX.x.4", sid: 3,
          headers: NATSHeaders(status: 404, statusDescription: "Message Not Found"))))
    return (bytes, expected)
  }()

  private func parseAll(_ chunks: [ArraySlice<UInt8>]) throws -> [NATSServerOperation] {
    var parser = NATSProtocolParser()
    var operations: [NATSServerOperation] = []
    for chunk in chunks {
      parser.append(chunk)
      while let operation = try parser.next() { operations.append(operation) }
    }
    XCTAssertEqual(parser.bufferedByteCount, 0)
    return operations
  }

  func testWholeStreamGivesEveryOperation() throws {
    let (bytes, expected) = Self.stream
    XCTAssertEqual(try parseAll([bytes[...]]), expected)
  }

  func testEverySplitPositionGivesTheSameOperations() throws {
    let (bytes, expected) = Self.stream
    for split in 0...bytes.count {
      let operations = try parseAll([bytes[..<split], bytes[split...]])
      XCTAssertEqual(operations, expected, "split at \(split)")
    }
  }

  func testEveryPairOfSplitsInOneMessage() throws {
    let bytes = Array("HMSG s 1 r 12 14\r\nNATS/1.0\r\n\r\nab\r\nPING\r\n".utf8)
    let expected = try parseAll([bytes[...]])
    XCTAssertEqual(expected.count, 2)
    for first in 0...bytes.count {
      for second in first...bytes.count {
        let chunks = [bytes[..<first], bytes[first..<second], bytes[second...]]
        XCTAssertEqual(try parseAll(chunks), expected, "splits at \(first), \(second)")
      }
    }
  }

  func testByteByByteGivesTheSameOperations() throws {
    let (bytes, expected) = Self.stream
    XCTAssertEqual(try parseAll(bytes.indices.map { bytes[$0...$0] }), expected)
  }

  func testPayloadOfAnySizeUpToTheCap() throws {
    var parser = NATSProtocolParser(maxPayload: 100_000)
    for size in [0, 1, 4095, 4096, 65_536, parser.maxMessageBytes] {
      let payload = (0..<size).map { UInt8(truncatingIfNeeded: $0 * 7) }
      parser.append(Array("MSG big 1 \(size)\r\n".utf8) + payload + [13, 10])
      let operation = try parser.next()
      XCTAssertEqual(
        operation, .message(NATSMessage(subject: "big", sid: 1, payload: payload[...])))
    }
  }

  func testMessageOverTheCapIsRefusedBeforeItsPayload() {
    var parser = NATSProtocolParser(maxPayload: 1000)
    let limit = parser.maxMessageBytes
    parser.append(Array("MSG big 1 \(limit + 1)\r\n".utf8))
    XCTAssertThrowsError(try parser.next()) {
      XCTAssertEqual($0 as? NATSProtocolError, .payloadTooLarge(size: limit + 1, limit: limit))
    }
  }

  func testLongControlLineIsRefusedWithoutWaitingForItsEnd() {
    var parser = NATSProtocolParser(maxControlLine: 100)
    parser.append(Array(repeating: UInt8(ascii: "A"), count: 101))
    XCTAssertNil(try parser.next(), "100 bytes and a CR may still end in an LF")
    parser.append([UInt8(ascii: "A")])
    XCTAssertThrowsError(try parser.next()) {
      XCTAssertEqual($0 as? NATSProtocolError, .controlLineTooLong(limit: 100))
    }
  }

  func testControlLineJustUnderTheLimitIsWaitedFor() throws {
    var parser = NATSProtocolParser(maxControlLine: 100)
    parser.append(Array("-ERR '".utf8) + Array(repeating: UInt8(ascii: "x"), count: 93))
    XCTAssertNil(try parser.next())
    parser.append(Array("'\r".utf8))
    XCTAssertNil(try parser.next())
    parser.append(Array("\n".utf8))
    XCTAssertEqual(try parser.next(), .error(String(repeating: "x", count: 93)))
  }

  func testMalformedInputIsATypedError() {
    let cases: [(String, NATSProtocolError)] = [
      ("HELLO\r\n", .unknownOperation("HELLO")),
      ("\r\n", .unknownOperation("")),
      ("MSG a 1\r\n", .malformedArguments(verb: "MSG", line: "MSG a 1")),
      ("MSG a x 1\r\n", .malformedArguments(verb: "MSG", line: "MSG a x 1")),
      ("MSG a 1 r -1\r\n", .malformedArguments(verb: "MSG", line: "MSG a 1 r -1")),
      ("MSG a 1 r 2 3\r\n", .malformedArguments(verb: "MSG", line: "MSG a 1 r 2 3")),
      (
        "MSG a 1 99999999999999999999\r\n",
        .malformedArguments(verb: "MSG", line: "MSG a 1 99999999999999999999")
      ),
      ("HMSG a 1 5\r\n", .malformedArguments(verb: "HMSG", line: "HMSG a 1 5")),
      ("HMSG a 1 5 4\r\n", .malformedArguments(verb: "HMSG", line: "HMSG a 1 5 4")),
      ("PING x\r\n", .malformedArguments(verb: "PING", line: "PING x")),
      ("MSG a 1 2\r\nabcd\r\n", .missingPayloadTerminator),
      ("HMSG a 1 4 4\r\nNATS\r\n", .malformedHeaders("no NATS/1.0 version line")),
      (
        "HMSG a 1 10 10\r\nNATS/1.0\r\n\r\n",
        .malformedHeaders("block does not end with an empty line")
      ),
      (
        "HMSG a 1 16 16\r\nNATS/1.0 5x3\r\n\r\n\r\n",
        .malformedHeaders("status '5x3' is not a three-digit code")
      ),
      ("HMSG a 1 18 18\r\nNATS/1.0\r\nnoco\r\n\r\n\r\n", .malformedHeaders("a field has no name")),
    ]
    for (input, expected) in cases {
      var parser = NATSProtocolParser()
      parser.append(Array(input.utf8))
      XCTAssertThrowsError(try parser.next(), input) {
        XCTAssertEqual($0 as? NATSProtocolError, expected, input)
      }
    }
  }

  func testMalformedInfoIsATypedError() {
    for input in ["INFO {\"max_payload\":\"big\"}\r\n", "INFO {\r\n", "INFO {}\r\n"] {
      var parser = NATSProtocolParser()
      parser.append(Array(input.utf8))
      XCTAssertThrowsError(try parser.next(), input) {
        guard case .malformedInfo = $0 as? NATSProtocolError else {
          return XCTFail("\(input): \($0)")
        }
      }
    }
  }

  /// What a parser makes of `chunks`: its operations, then the error that stopped it.
  private func outcome(_ chunks: [ArraySlice<UInt8>]) -> ([NATSServerOperation], NATSProtocolError?)
  {
    var parser = NATSProtocolParser(maxPayload: 256, maxControlLine: 128)
    var operations: [NATSServerOperation] = []
    do {
      for chunk in chunks {
        parser.append(chunk)
        while let operation = try parser.next() { operations.append(operation) }
      }
    } catch {
      return (operations, error)
    }
    return (operations, nil)
  }

  func testRandomBytesGiveTheSameOutcomeWholeAndByteByByte() {
    var generator = SystemRandomNumberGenerator()
    let alphabet = Array("\r\n 1:NATS/.0".utf8)
    let prefixes = ["MSG a 1 ", "HMSG a 1 ", "INFO ", "-ERR ", "PING", "HMSG a 1 12 14\r\n", ""]
    for _ in 0..<300 {
      var bytes = Array(prefixes.randomElement(using: &generator)!.utf8)
      for _ in 0..<Int.random(in: 0..<400, using: &generator) {
        bytes.append(
          Bool.random(using: &generator)
            ? alphabet.randomElement(using: &generator)!
            : UInt8.random(in: 0...255, using: &generator))
      }
      let whole = outcome([bytes[...]])
      let split = outcome(bytes.indices.map { bytes[$0...$0] })
      XCTAssertEqual(whole.0, split.0, "\(bytes)")
      XCTAssertEqual(whole.1, split.1, "\(bytes)")
    }
  }

  func testPayloadSliceIsNotCopiedFromTheBuffer() throws {
    var parser = NATSProtocolParser()
    parser.append(Array("MSG a 1 3\r\nabc\r\nMSG a 1 3\r\ndef\r\n".utf8))
    guard case .message(let first) = try parser.next(),
      case .message(let second) = try parser.next()
    else { return XCTFail("expected two messages") }
    // Both payloads are slices of one buffer: the second starts where the first's line ends.
    XCTAssertEqual(second.payload.startIndex - first.payload.startIndex, 16)
  }
}
