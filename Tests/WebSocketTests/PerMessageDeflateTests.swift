import TestSupport
import XCTest

@testable import WebSocket

final class PerMessageDeflateTests: XCTestCase {
  private func parameters(_ extensions: String) -> PerMessageDeflateParameters {
    var headers = HTTPHeaders()
    headers.append(name: "Sec-WebSocket-Extensions", value: extensions)
    return PerMessageDeflateParameters.negotiate(
      offers: WebSocketExtensionOffer.offers(in: headers), policy: PerMessageDeflatePolicy())!
  }

  private let messages = (0..<20).map { index in
    "{\"topic\":\"room.\(index % 3)\",\"value\":\"\(String(repeating: "abc", count: index * 7))é\"}"
  }

  /// Compressed server frames for `messages`, as the encoder writes them.
  private func serverFrames(_ agreed: PerMessageDeflateParameters) throws -> [ServerFrame] {
    let encoder = try WebSocketFrameEncoder(deflate: agreed)
    var output: [UInt8] = []
    encoder.appendTextMessages(lines: Array(messages.map { $0 + "\n" }.joined().utf8), to: &output)
    return try XCTUnwrap(ServerFrame.parseAll(output))
  }

  func testContextTakeoverShrinksRepeatedMessagesAndItsAbsenceDoesNot() throws {
    let repeated = Array(String(repeating: "{\"topic\":\"room.1\",\"value\":42}\n", count: 3).utf8)
    for (offer, shrinks) in [
      ("permessage-deflate", true), ("permessage-deflate; server_no_context_takeover", false),
    ] {
      let encoder = try WebSocketFrameEncoder(deflate: parameters(offer))
      var output: [UInt8] = []
      encoder.appendTextMessages(lines: repeated, to: &output)
      let frames = try XCTUnwrap(ServerFrame.parseAll(output))
      XCTAssertTrue(frames.allSatisfy(\.rsv1), offer)
      XCTAssertEqual(frames[1].payload.count < frames[0].payload.count, shrinks, offer)
      if shrinks {
        XCTAssertLessThan(frames[2].payload.count, frames[0].payload.count, offer)
      } else {
        XCTAssertEqual(frames[1].payload, frames[2].payload, offer)
      }
    }
  }

  /// Python's zlib inflates what the encoder compressed, per the negotiated takeover and
  /// window, including the 8-bit window zlib cannot deflate with.
  func testPythonInflatesWhatTheEncoderCompressed() async throws {
    for (offer, bits, takeover) in [
      ("permessage-deflate", 15, true),
      ("permessage-deflate; server_no_context_takeover", 15, false),
      ("permessage-deflate; server_max_window_bits=8", 8, true),
      ("permessage-deflate; server_max_window_bits=10; server_no_context_takeover", 10, false),
    ] {
      let frames = try serverFrames(parameters(offer))
      let output = try await PythonProcess.run(
        arguments: [
          PythonProcess.script("message_deflate_peer.py"), "inflate", "\(bits)",
          takeover ? "1" : "0",
        ],
        input: PythonProcess.encode(frames.map(\.payload)))
      XCTAssertEqual(
        try PythonProcess.decode(output).map { String(decoding: $0, as: UTF8.self) }, messages,
        offer)
    }
  }

  /// The decoder inflates what Python's zlib compressed, sent in fragments split at random
  /// with pings between them.
  func testDecoderInflatesWhatPythonCompressed() async throws {
    for (offer, bits, takeover) in [
      ("permessage-deflate; client_max_window_bits", 15, true),
      ("permessage-deflate; client_no_context_takeover", 15, false),
      ("permessage-deflate; client_max_window_bits=9", 9, true),
    ] {
      let output = try await PythonProcess.run(
        arguments: [
          PythonProcess.script("message_deflate_peer.py"), "deflate", "\(bits)",
          takeover ? "1" : "0",
        ],
        input: PythonProcess.encode(messages.map { Array($0.utf8) }))
      let payloads = try PythonProcess.decode(output)
      var bytes: [UInt8] = []
      for payload in payloads {
        let cut = Int.random(in: 0...payload.count)
        var first = ClientFrame(fin: false, opcode: 0x1, payload: Array(payload[..<cut]))
        first.rsv1 = true
        bytes += first.bytes + ClientFrame(opcode: 0x9, payload: [9]).bytes
        bytes += ClientFrame(opcode: 0x0, payload: Array(payload[cut...])).bytes
      }
      let decoder = try WebSocketFrameDecoder(
        maximumMessageBytes: 1 << 16, deflate: parameters(offer))
      let result = DecodeResult.run(decoder, [bytes])
      XCTAssertNil(result.error, offer)
      let texts = result.events.compactMap { event -> String? in
        guard case .text(let bytes) = event else { return nil }
        return String(decoding: bytes, as: UTF8.self)
      }
      XCTAssertEqual(texts, messages, offer)
    }
  }

  /// Messages larger than the 16 KiB pieces zlib works in, compressible or not, survive the
  /// encoder and decoder, split across reads at random.
  func testLargeMessagesRoundTripThroughEncoderAndDecoder() throws {
    var generator = SystemRandomNumberGenerator()
    let noise = (0..<100_000).map { _ in UInt8.random(in: 0x21...0x7E, using: &generator) }
    let texts = [
      String(decoding: noise, as: UTF8.self), String(repeating: "é-", count: 30_000), "short",
    ]
    for offer in [
      "permessage-deflate",
      "permessage-deflate; server_no_context_takeover; client_no_context_takeover",
    ] {
      let agreed = parameters(offer)
      let encoder = try WebSocketFrameEncoder(deflate: agreed)
      var output: [UInt8] = []
      encoder.appendTextMessages(lines: Array(texts.map { $0 + "\n" }.joined().utf8), to: &output)
      let frames = try XCTUnwrap(ServerFrame.parseAll(output))
      XCTAssertLessThan(frames[1].payload.count, 2000, offer)
      var wire: [UInt8] = []
      for frame in frames {
        var client = ClientFrame(opcode: frame.opcode, payload: frame.payload)
        client.rsv1 = frame.rsv1
        wire += client.bytes
      }
      var pieces: [[UInt8]] = []
      var offset = 0
      while offset < wire.count {
        let size = min(wire.count - offset, Int.random(in: 1...40_000, using: &generator))
        pieces.append(Array(wire[offset..<offset + size]))
        offset += size
      }
      let decoder = try WebSocketFrameDecoder(maximumMessageBytes: 100_000, deflate: agreed)
      let result = DecodeResult.run(decoder, pieces)
      XCTAssertNil(result.error, offer)
      // Compared as a whole so a failure does not print megabytes.
      XCTAssertEqual(result.events.count, texts.count, offer)
      XCTAssertTrue(result.events == texts.map { .text(Array($0.utf8)) }, offer)
    }
  }

  func testTheInflatedCapIsExact() throws {
    let agreed = parameters("permessage-deflate; client_no_context_takeover")
    for (size, fits) in [(50_000, true), (50_001, false)] {
      let deflater = try PerMessageDeflater(agreed)
      try deflater.compress([UInt8](repeating: 0x62, count: size))
      var frame = ClientFrame(opcode: 0x1, payload: deflater.compressed)
      frame.rsv1 = true
      let decoder = try WebSocketFrameDecoder(maximumMessageBytes: 50_000, deflate: agreed)
      let result = DecodeResult.run(decoder, [frame.bytes])
      XCTAssertEqual(result.error == nil, fits, "\(size)")
      XCTAssertEqual(result.error?.closeCode, fits ? nil : .messageTooBig, "\(size)")
    }
  }

  func testDecompressionBombIs1009() throws {
    let agreed = parameters("permessage-deflate")
    let deflater = try PerMessageDeflater(agreed)
    try deflater.compress([UInt8](repeating: 0x61, count: 10 << 20))
    XCTAssertLessThan(deflater.compressed.count, 64 * 1024)
    var frame = ClientFrame(opcode: 0x1, payload: deflater.compressed)
    frame.rsv1 = true
    let decoder = try WebSocketFrameDecoder(maximumMessageBytes: 1 << 20, deflate: agreed)
    XCTAssertEqual(DecodeResult.run(decoder, [frame.bytes]).error?.closeCode, .messageTooBig)
  }

  func testCorruptOrNonUTF8CompressedDataIs1007AndRSV1RulesHold() throws {
    let agreed = parameters("permessage-deflate")
    var corrupt = ClientFrame(opcode: 0x1, payload: [0xFF, 0xFF, 0xFF, 0xFF])
    corrupt.rsv1 = true
    let decoder = try WebSocketFrameDecoder(maximumMessageBytes: 1 << 20, deflate: agreed)
    XCTAssertEqual(DecodeResult.run(decoder, [corrupt.bytes]).error?.closeCode, .invalidPayload)

    let deflater = try PerMessageDeflater(agreed)
    try deflater.compress([0x61, 0xC0, 0x80])
    var invalid = ClientFrame(opcode: 0x1, payload: deflater.compressed)
    invalid.rsv1 = true
    let second = try WebSocketFrameDecoder(maximumMessageBytes: 1 << 20, deflate: agreed)
    XCTAssertEqual(DecodeResult.run(second, [invalid.bytes]).error?.closeCode, .invalidPayload)

    var continuation = ClientFrame(opcode: 0x0, payload: [])
    continuation.rsv1 = true
    var ping = ClientFrame(opcode: 0x9, payload: [])
    ping.rsv1 = true
    for (name, bytes) in [
      ("RSV1 on a continuation", ClientFrame.text("a", fin: false).bytes + continuation.bytes),
      ("RSV1 on a ping", ping.bytes),
    ] {
      let fresh = try WebSocketFrameDecoder(maximumMessageBytes: 1 << 20, deflate: agreed)
      XCTAssertEqual(DecodeResult.run(fresh, [bytes]).error?.closeCode, .protocolError, name)
    }
    // Uncompressed messages stay allowed when compression was agreed.
    let plain = try WebSocketFrameDecoder(maximumMessageBytes: 1 << 20, deflate: agreed)
    XCTAssertEqual(
      DecodeResult.run(plain, [ClientFrame.text("plain").bytes]).events,
      [.text(Array("plain".utf8))])
  }
}
