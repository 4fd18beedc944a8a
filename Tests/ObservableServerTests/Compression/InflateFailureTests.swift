import Testing

@testable import Deflate
@testable import ObservableServer

/// How the decompressor reacts to input it must not accept.
@Suite struct InflateFailureTests {
  /// A complete raw deflate stream: one final, empty block with fixed Huffman codes.
  static let finishedStream: [UInt8] = [0x03, 0x00]

  struct LineTooLong: Error {}

  static func decompress(_ bytes: [UInt8], with decompressor: InflateDecompressor) throws {
    try bytes.withUnsafeBytes { try decompressor.decompress($0) { _ in } }
  }

  @Test func corruptInputThrowsWithZlibsMessage() throws {
    let decompressor = try InflateDecompressor()
    // First block header says "final, type 3"; type 3 is reserved in RFC 1951.
    let error = #expect(throws: CompressionError.self) {
      try Self.decompress([0xFF, 0xFF, 0xFF, 0xFF], with: decompressor)
    }
    guard case .corruptInput(let message) = error else {
      Issue.record("expected corruptInput, got \(String(describing: error))")
      return
    }
    #expect(message == "invalid block type")
    #expect(error?.description.contains("invalid block type") == true)
  }

  @Test func streamIsUnusableAfterAFailure() throws {
    let decompressor = try InflateDecompressor()
    #expect(throws: CompressionError.self) {
      try Self.decompress([0xFF, 0xFF], with: decompressor)
    }
    let error = #expect(throws: CompressionError.self) {
      try Self.decompress([0x00], with: decompressor)
    }
    guard case .streamUnusable = error else {
      Issue.record("expected streamUnusable, got \(String(describing: error))")
      return
    }
  }

  @Test func inputAfterTheEndOfStreamInALaterCallIsRefused() throws {
    let decompressor = try InflateDecompressor()
    try Self.decompress(Self.finishedStream, with: decompressor)
    // Nothing new is harmless: there is no data to refuse.
    try Self.decompress([], with: decompressor)
    let error = #expect(throws: CompressionError.self) {
      try Self.decompress([0x41, 0x42], with: decompressor)
    }
    guard case .inputAfterStreamEnd(let byteCount) = error else {
      Issue.record("expected inputAfterStreamEnd, got \(String(describing: error))")
      return
    }
    #expect(byteCount == 2)
  }

  @Test func inputAfterTheEndOfStreamInTheSameCallIsRefusedAfterDeliveringOutput() throws {
    let decompressor = try InflateDecompressor()
    // "hi" as a final stored block (header, LEN, NLEN, data), then one stray byte.
    let wire: [UInt8] = [0x01, 0x02, 0x00, 0xFD, 0xFF, 0x68, 0x69, 0x00]
    var output: [UInt8] = []
    let error = #expect(throws: CompressionError.self) {
      try wire.withUnsafeBytes { try decompressor.decompress($0) { output += $0 } }
    }
    guard case .inputAfterStreamEnd(let byteCount) = error else {
      Issue.record("expected inputAfterStreamEnd, got \(String(describing: error))")
      return
    }
    #expect(byteCount == 1)
    #expect(output == Array("hi".utf8))
  }

  @Test func consumerErrorsAreWrappedAndStopTheStream() throws {
    let compressor = try DeflateCompressor()
    let decompressor = try InflateDecompressor()
    var wire: [UInt8] = []
    Array(repeating: UInt8(ascii: "x"), count: 1 << 20).withUnsafeBytes {
      compressor.compress($0, appendingTo: &wire)
    }
    var calls = 0
    let error = #expect(throws: CompressionError.self) {
      try wire.withUnsafeBytes { buffer in
        try decompressor.decompress(buffer) { _ in
          calls += 1
          throw LineTooLong()
        }
      }
    }
    guard case .consumerFailed(let underlying) = error else {
      Issue.record("expected consumerFailed, got \(String(describing: error))")
      return
    }
    #expect(underlying is LineTooLong)
    // The first refusal ends decompression; zlib is not asked for more output.
    #expect(calls == 1)
  }
}
