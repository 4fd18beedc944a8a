import XCTest

@testable import WebSocket

final class WebSocketFrameEncoderTests: XCTestCase {
  func testOneTextFramePerLineAppendedAfterWhatWasThere() throws {
    let encoder = try WebSocketFrameEncoder()
    var output: [UInt8] = [0xAA]
    let lines = ["{\"a\":1}", "", "κόσμε", String(repeating: "x", count: 200)]
    encoder.appendTextMessages(
      lines: Array((lines.joined(separator: "\n") + "\ntail").utf8), to: &output)
    XCTAssertEqual(output.first, 0xAA)
    let frames = try XCTUnwrap(ServerFrame.parseAll(Array(output.dropFirst())))
    XCTAssertEqual(frames.map { String(decoding: $0.payload, as: UTF8.self) }, lines + ["tail"])
    XCTAssertTrue(frames.allSatisfy { $0.fin && !$0.rsv1 && $0.opcode == 0x1 })
  }

  func testLengthEncodingsAtTheirBoundaries() throws {
    let encoder = try WebSocketFrameEncoder()
    for (length, headerLength) in [(0, 2), (125, 2), (126, 4), (65535, 4), (65536, 10)] {
      var output: [UInt8] = []
      let message = [UInt8](repeating: 0x61, count: length)
      message.withUnsafeBytes { encoder.appendText($0, to: &output) }
      XCTAssertEqual(output.count, length + headerLength, "length \(length)")
      XCTAssertEqual(try XCTUnwrap(ServerFrame.parseAll(output)).first?.payload, message)
    }
  }

  func testControlFrames() throws {
    var output: [UInt8] = []
    WebSocketFrameEncoder.appendPing([1, 2], to: &output)
    WebSocketFrameEncoder.appendPong([UInt8](repeating: 7, count: 200), to: &output)
    WebSocketFrameEncoder.appendClose(
      .messageTooBig, reason: String(repeating: "é", count: 100), to: &output)
    WebSocketFrameEncoder.appendClose(nil, to: &output)
    let frames = try XCTUnwrap(ServerFrame.parseAll(output))
    XCTAssertEqual(frames.map(\.opcode), [0x9, 0xA, 0x8, 0x8])
    XCTAssertEqual(frames[0].payload, [1, 2])
    XCTAssertEqual(frames[1].payload.count, 125)
    XCTAssertEqual(Array(frames[2].payload.prefix(2)), [0x03, 0xF1])
    // 61 two-byte characters fit in 123 bytes; the 62nd would split.
    XCTAssertEqual(
      String(decoding: frames[2].payload.dropFirst(2), as: UTF8.self),
      String(repeating: "é", count: 61))
    XCTAssertEqual(frames[3].payload, [])
  }

  /// The encoder's frames, masked as a client would send them, decode to the same lines:
  /// the two halves agree on the framing.
  func testDecoderReadsWhatTheEncoderWrites() throws {
    let encoder = try WebSocketFrameEncoder()
    var output: [UInt8] = []
    let lines = (0..<50).map { "line \($0) " + String(repeating: "é", count: $0 * 30) }
    encoder.appendTextMessages(lines: Array(lines.map { $0 + "\n" }.joined().utf8), to: &output)
    let frames = try XCTUnwrap(ServerFrame.parseAll(output))
    let masked = frames.flatMap { ClientFrame(opcode: $0.opcode, payload: $0.payload).bytes }
    let result = DecodeResult.run(try WebSocketFrameDecoder(maximumMessageBytes: 1 << 20), [masked])
    XCTAssertEqual(result.events, lines.map { .text(Array($0.utf8)) })
  }

  /// Not a benchmark, a guard: framing a chunk of short lines must stay cheap.
  func testFramingManyLinesIsFast() throws {
    let encoder = try WebSocketFrameEncoder()
    let line = "{\"topic\":\"room.1\",\"value\":12345,\"sub\":\"room.*\"}\n"
    let chunk = Array(String(repeating: line, count: 1000).utf8)
    var output: [UInt8] = []
    output.reserveCapacity(chunk.count * 2)
    let clock = ContinuousClock()
    let started = clock.now
    for _ in 0..<100 {
      output.removeAll(keepingCapacity: true)
      encoder.appendTextMessages(lines: chunk, to: &output)
    }
    let elapsed = clock.now - started
    XCTAssertEqual(output.count, chunk.count - 1000 + 2000)
    XCTAssertLessThan(elapsed, .seconds(5), "100,000 lines took \(elapsed)")
  }
}
