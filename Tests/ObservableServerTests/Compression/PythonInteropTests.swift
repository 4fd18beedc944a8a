import Testing

@testable import Deflate
@testable import ObservableServer

/// Interoperability with Python's zlib, an implementation that shares no code with ours
/// beyond zlib itself and drives it differently, in both directions.
@Suite struct PythonInteropTests {
  static let messages: [[UInt8]] = (0..<300).map { index in
    // Mostly small lines, with an occasional large one that spans several output steps.
    let repeats = index % 50 == 0 ? 5_000 : 1
    return Array(
      String(repeating: "{\"seq\":\(index),\"v\":\"é\(index % 13)\"}", count: repeats).utf8)
      + [10]
  }

  @Test(.timeLimit(.minutes(1)))
  func pythonDecodesEachOfOurFlushesOnItsOwn() async throws {
    let compressor = try DeflateCompressor()
    let frames = Self.messages.map { message in
      var wire: [UInt8] = []
      message.withUnsafeBytes { compressor.compress($0, appendingTo: &wire) }
      return wire
    }
    let decoded = try await PythonDeflatePeer.run(.inflate, frames: frames)
    #expect(decoded.count == Self.messages.count)
    for (index, pair) in zip(decoded, Self.messages).enumerated() where pair.0 != pair.1 {
      Issue.record("message \(index) decoded differently by Python")
      break
    }
  }

  @Test(.timeLimit(.minutes(1)))
  func weDecodeEachOfPythonsFlushesOnItsOwn() async throws {
    let frames = try await PythonDeflatePeer.run(.deflate, frames: Self.messages)
    #expect(frames.count == Self.messages.count)
    let decompressor = try InflateDecompressor()
    for (index, (frame, message)) in zip(frames, Self.messages).enumerated() {
      var decoded: [UInt8] = []
      try frame.withUnsafeBytes { buffer in
        try decompressor.decompress(buffer) { decoded += $0 }
      }
      try #require(decoded == message, "message \(index)")
    }
  }
}
