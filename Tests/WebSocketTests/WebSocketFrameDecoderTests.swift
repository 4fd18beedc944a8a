import XCTest

@testable import WebSocket

final class WebSocketFrameDecoderTests: XCTestCase {
  private func decoder(cap: Int = 1 << 20, binary: Bool = false) -> WebSocketFrameDecoder {
    try! WebSocketFrameDecoder(maximumMessageBytes: cap, acceptsBinary: binary)
  }

  private func decode(_ bytes: [UInt8], cap: Int = 1 << 20, binary: Bool = false) -> DecodeResult {
    DecodeResult.run(decoder(cap: cap, binary: binary), [bytes])
  }

  /// A conversation with every kind of frame: a text message in three fragments with a
  /// four-byte character split between fragments and control frames between them.
  private var conversation: (bytes: [UInt8], events: [WebSocketEvent]) {
    let emoji = Array("🎉".utf8)
    var frames = [ClientFrame.text("hello")]
    frames.append(ClientFrame(fin: false, opcode: 0x1, payload: Array("a".utf8) + emoji[..<1]))
    frames.append(ClientFrame(opcode: 0x9, payload: [1, 2, 3]))
    frames.append(ClientFrame(fin: false, opcode: 0x0, payload: Array(emoji[1..<3])))
    frames.append(ClientFrame(opcode: 0xA, payload: []))
    frames.append(ClientFrame(opcode: 0x0, payload: Array(emoji[3...]) + Array("z".utf8)))
    frames.append(ClientFrame(opcode: 0x2, payload: Array(0...255), maskKey: [0, 0xFF, 0x10, 1]))
    frames.append(ClientFrame(opcode: 0x1, payload: [UInt8](repeating: 0x61, count: 300)))
    frames.append(ClientFrame(opcode: 0x8, payload: [0x03, 0xE8] + Array("bye".utf8)))
    let events: [WebSocketEvent] = [
      .text(Array("hello".utf8)), .ping([1, 2, 3]), .pong([]),
      .text(Array("a".utf8) + emoji + Array("z".utf8)), .binary(Array(0...255)),
      .text([UInt8](repeating: 0x61, count: 300)), .close(code: .normalClosure, reason: "bye"),
    ]
    return (frames.flatMap(\.bytes), events)
  }

  func testDecodesEveryKindOfFrame() {
    let (bytes, events) = conversation
    let result = decode(bytes, binary: true)
    XCTAssertNil(result.error)
    XCTAssertEqual(result.events, events)
  }

  func testEverySplitPositionGivesTheSameEvents() {
    let (bytes, events) = conversation
    for split in 1..<bytes.count {
      let result = DecodeResult.run(
        decoder(binary: true), [Array(bytes[..<split]), Array(bytes[split...])])
      XCTAssertNil(result.error, "split \(split)")
      XCTAssertEqual(result.events, events, "split \(split)")
    }
    let oneByOne = DecodeResult.run(decoder(binary: true), bytes.map { [$0] })
    XCTAssertEqual(oneByOne.events, events)
  }

  func testLengthFormsAndRandomMasks() {
    for length in [0, 1, 125, 126, 127, 65535, 65536, 70000] {
      let payload = (0..<length).map { UInt8(truncatingIfNeeded: $0 % 95 + 32) }
      let key = (0..<4).map { _ in UInt8.random(in: 0...255) }
      let frame = ClientFrame(opcode: 0x1, payload: payload, maskKey: key)
      let result = decode(frame.bytes)
      XCTAssertEqual(result.events, [.text(payload)], "length \(length)")
    }
  }

  func testProtocolErrorsAre1002() {
    var rsv2 = ClientFrame.text("x")
    rsv2.rsv2 = true
    var rsv3 = ClientFrame.text("x")
    rsv3.rsv3 = true
    var rsv1 = ClientFrame.text("x")
    rsv1.rsv1 = true
    var unmasked = ClientFrame.text("x")
    unmasked.maskKey = nil
    var short16 = ClientFrame.text("x")
    short16.lengthForm = .sixteenBits
    var short64 = ClientFrame(opcode: 0x1, payload: [UInt8](repeating: 0x61, count: 200))
    short64.lengthForm = .sixtyFourBits
    let cases: [(String, [UInt8])] = [
      ("unmasked", unmasked.bytes), ("RSV1 without deflate", rsv1.bytes),
      ("RSV2", rsv2.bytes), ("RSV3", rsv3.bytes),
      ("opcode 3", ClientFrame(opcode: 0x3, payload: []).bytes),
      ("opcode 7", ClientFrame(opcode: 0x7, payload: []).bytes),
      ("opcode B", ClientFrame(opcode: 0xB, payload: []).bytes),
      ("opcode F", ClientFrame(opcode: 0xF, payload: []).bytes),
      ("long ping", ClientFrame(opcode: 0x9, payload: [UInt8](repeating: 0, count: 126)).bytes),
      ("fragmented ping", ClientFrame(fin: false, opcode: 0x9, payload: []).bytes),
      ("continuation first", ClientFrame(opcode: 0x0, payload: [0x61]).bytes),
      ("text inside text", ClientFrame.text("a", fin: false).bytes + ClientFrame.text("b").bytes),
      ("non-minimal 16-bit length", short16.bytes),
      ("non-minimal 64-bit length", short64.bytes),
      ("64-bit length top bit", [0x81, 0xFF, 0x80, 0, 0, 0, 0, 0, 0, 1, 1, 2, 3, 4]),
      ("one-byte close", ClientFrame(opcode: 0x8, payload: [0x03]).bytes),
    ]
    for (name, bytes) in cases {
      XCTAssertEqual(decode(bytes).error?.closeCode, .protocolError, name)
    }
    for code: UInt16 in [0, 999, 1004, 1005, 1006, 1015, 1016, 2999, 5000, 65535] {
      let frame = ClientFrame(opcode: 0x8, payload: [UInt8(code >> 8), UInt8(code & 0xFF)])
      XCTAssertEqual(decode(frame.bytes).error?.closeCode, .protocolError, "close code \(code)")
    }
    for code: UInt16 in [1000, 1001, 1003, 1007, 1011, 1014, 3000, 4999] {
      let frame = ClientFrame(opcode: 0x8, payload: [UInt8(code >> 8), UInt8(code & 0xFF)])
      let result = decode(frame.bytes)
      XCTAssertEqual(result.events, [.close(code: WebSocketCloseCode(rawValue: code), reason: "")])
    }
  }

  func testProtocolErrorsAreSeenFromTheFirstTwoBytes() {
    var unmasked = ClientFrame(opcode: 0x1, payload: [UInt8](repeating: 0x61, count: 1000))
    unmasked.maskKey = nil
    let result = decode(Array(unmasked.bytes.prefix(2)))
    XCTAssertEqual(result.error?.closeCode, .protocolError)
  }

  func testInvalidUTF8Is1007AsSoonAsItArrives() {
    XCTAssertEqual(
      decode(ClientFrame(opcode: 0x1, payload: [0xC0, 0x80]).bytes).error?.closeCode,
      .invalidPayload)
    // The bad byte is in a non-final fragment: no need to wait for the end of the message.
    let fragment = ClientFrame(fin: false, opcode: 0x1, payload: Array("ok".utf8) + [0xED, 0xA0])
    XCTAssertEqual(decode(fragment.bytes).error?.closeCode, .invalidPayload)
    // Split across fragments: E0 then 80 is an overlong form.
    let split =
      ClientFrame(fin: false, opcode: 0x1, payload: [0xE0]).bytes
      + ClientFrame(opcode: 0x0, payload: [0x80, 0x80]).bytes
    XCTAssertEqual(decode(split).error?.closeCode, .invalidPayload)
    // A message may not end inside a code point.
    let truncated =
      ClientFrame(fin: false, opcode: 0x1, payload: [0x61]).bytes
      + ClientFrame(opcode: 0x0, payload: [0xF0, 0x9F]).bytes
    XCTAssertEqual(decode(truncated).error?.closeCode, .invalidPayload)
    let badReason = ClientFrame(opcode: 0x8, payload: [0x03, 0xE8, 0xFF]).bytes
    XCTAssertEqual(decode(badReason).error?.closeCode, .invalidPayload)
    // Binary messages are not text.
    XCTAssertEqual(
      decode(ClientFrame(opcode: 0x2, payload: [0xFF]).bytes, binary: true).events,
      [.binary([0xFF])])
  }

  func testA100MBDeclaredLengthIs1009FromTheHeaderAlone() {
    let header = ClientFrame.header(opcode: 0x1, length: 100 << 20)
    XCTAssertEqual(header.count, 14)
    let result = decode(header, cap: 1 << 20)
    XCTAssertEqual(result.error?.closeCode, .messageTooBig)
    XCTAssertTrue(result.events.isEmpty)
  }

  func testTheCapCountsTheWholeMessageAcrossFragments() {
    let cap = 1000
    let exact =
      ClientFrame(fin: false, opcode: 0x1, payload: [UInt8](repeating: 0x61, count: 600)).bytes
      + ClientFrame(opcode: 0x0, payload: [UInt8](repeating: 0x62, count: 400)).bytes
    XCTAssertEqual(decode(exact, cap: cap).events.count, 1)
    let over =
      ClientFrame(fin: false, opcode: 0x1, payload: [UInt8](repeating: 0x61, count: 600)).bytes
      + ClientFrame.header(opcode: 0x0, length: 401)
    XCTAssertEqual(decode(over, cap: cap).error?.closeCode, .messageTooBig)
    // Control frames between fragments do not count toward the message.
    let withPing =
      ClientFrame(fin: false, opcode: 0x1, payload: [UInt8](repeating: 0x61, count: 999)).bytes
      + ClientFrame(opcode: 0x9, payload: [UInt8](repeating: 0, count: 125)).bytes
      + ClientFrame(opcode: 0x0, payload: [0x62]).bytes
    XCTAssertEqual(decode(withPing, cap: cap).events.count, 2)
  }

  func testBinaryIs1003UnlessAccepted() {
    let frame = ClientFrame.header(opcode: 0x2, length: 10)
    XCTAssertEqual(decode(frame).error?.closeCode, .unsupportedData)
  }

  func testFailureIsStickyAndCloseEndsDecoding() {
    let failing = decoder()
    XCTAssertNotNil(DecodeResult.run(failing, [ClientFrame(opcode: 0x3, payload: []).bytes]).error)
    let again = DecodeResult.run(failing, [ClientFrame.text("fine").bytes])
    XCTAssertEqual(again.error?.closeCode, .protocolError)
    XCTAssertTrue(again.events.isEmpty)
    let closing = decoder()
    let result = DecodeResult.run(
      closing, [ClientFrame(opcode: 0x8, payload: []).bytes + ClientFrame.text("late").bytes])
    XCTAssertEqual(result.events, [.close(code: nil, reason: "")])
    XCTAssertNil(result.error)
  }
}
