import Testing

@testable import Deflate
@testable import ObservableServer

/// The compressor and decompressor against each other: one long-lived stream per direction,
/// as a connection uses them.
@Suite struct DeflateRoundTripTests {
  /// A JSON line like those the server sends, varied so compression has real work to do.
  static func message(_ index: Int) -> [UInt8] {
    let line = #"{"stream":"uptime","seq":\#(index),"value":"load average: 0.\#(index % 97)"}"#
    return Array(line.utf8) + [10]
  }

  /// Decompresses `wire`, collecting the output and the size of every piece.
  static func inflate(
    _ wire: [UInt8], with decompressor: InflateDecompressor
  ) throws -> (bytes: [UInt8], chunkSizes: [Int]) {
    var bytes: [UInt8] = []
    var chunkSizes: [Int] = []
    try wire.withUnsafeBytes { buffer in
      try decompressor.decompress(buffer) { chunk in
        bytes.append(contentsOf: chunk)
        chunkSizes.append(chunk.count)
      }
    }
    return (bytes, chunkSizes)
  }

  @Test func eachMessageIsDecodableRightAfterItsOwnFlush() throws {
    let compressor = try DeflateCompressor()
    let decompressor = try InflateDecompressor()
    for index in 0..<1_000 {
      let message = Self.message(index)
      var wire: [UInt8] = []
      message.withUnsafeBytes { compressor.compress($0, appendingTo: &wire) }
      // A sync flush ends with an empty stored block, whose length fields read 00 00 FF FF.
      // The loop stops at the first failure rather than reporting a thousand.
      try #require(wire.suffix(4) == [0x00, 0x00, 0xFF, 0xFF], "message \(index)")
      let decoded = try Self.inflate(wire, with: decompressor)
      try #require(decoded.bytes == message, "message \(index)")
    }
  }

  @Test func laterMessagesReuseTheStreamHistory() throws {
    let compressor = try DeflateCompressor()
    let message = Self.message(7)
    var first: [UInt8] = []
    var second: [UInt8] = []
    message.withUnsafeBytes { compressor.compress($0, appendingTo: &first) }
    message.withUnsafeBytes { compressor.compress($0, appendingTo: &second) }
    // The repeat is encoded as a back-reference into the first message, so it is far
    // smaller; a per-message stream would produce two outputs of the same size.
    #expect(second.count * 2 < first.count)
  }

  @Test func compressAppendsWithoutTouchingExistingBytes() throws {
    let compressor = try DeflateCompressor()
    var wire: [UInt8] = [1, 2, 3]
    Self.message(1).withUnsafeBytes { compressor.compress($0, appendingTo: &wire) }
    #expect(wire.prefix(3) == [1, 2, 3])
    #expect(wire.count > 3)
  }

  @Test func emptyInputAppendsNothing() throws {
    let compressor = try DeflateCompressor()
    var wire: [UInt8] = []
    [UInt8]().withUnsafeBytes { compressor.compress($0, appendingTo: &wire) }
    #expect(wire.isEmpty)
  }

  @Test(arguments: [-1, 0, 1, 9])
  func everyValidLevelRoundTrips(level: Int) throws {
    let compressor = try DeflateCompressor(level: level)
    let decompressor = try InflateDecompressor()
    let message = Array(repeating: Self.message(3), count: 50).flatMap { $0 }
    var wire: [UInt8] = []
    message.withUnsafeBytes { compressor.compress($0, appendingTo: &wire) }
    #expect(try Self.inflate(wire, with: decompressor).bytes == message)
  }

  @Test func invalidLevelIsRejected() {
    #expect(throws: CompressionError.self) { try DeflateCompressor(level: 10) }
  }

  @Test func largeInputSurvivesArbitrarySplitsOfTheWire() throws {
    // 16 MiB of varied text: compresses, but not to nothing, so output spans many steps.
    // A fixed xorshift sequence: varied input that is identical on every run.
    var state: UInt64 = 0x2545_F491_4F6C_DD1D
    func nextRandom() -> UInt64 {
      state ^= state << 13
      state ^= state >> 7
      state ^= state << 17
      return state
    }
    let words = ["load", "average", "stream", "value", "{", "}", "\"", ":", "0.42", "\n"]
    var input: [UInt8] = []
    input.reserveCapacity(16 << 20)
    while input.count < 16 << 20 {
      input.append(contentsOf: words[Int(nextRandom() % UInt64(words.count))].utf8)
      input.append(UInt8(truncatingIfNeeded: nextRandom() % 64 + 32))
    }
    let compressor = try DeflateCompressor()
    let decompressor = try InflateDecompressor()
    var wire: [UInt8] = []
    input.withUnsafeBytes { compressor.compress($0, appendingTo: &wire) }
    #expect(wire.count < input.count)

    // Feed the wire in uneven pieces, as reads from a socket would arrive.
    var output: [UInt8] = []
    output.reserveCapacity(input.count)
    var largestChunk = 0
    var offset = 0
    var step = 1
    try wire.withUnsafeBytes { buffer in
      while offset < buffer.count {
        let end = min(offset + step, buffer.count)
        try decompressor.decompress(UnsafeRawBufferPointer(rebasing: buffer[offset..<end])) {
          output.append(contentsOf: $0)
          largestChunk = max(largestChunk, $0.count)
        }
        offset = end
        step = step % 40_000 + 7_919
      }
    }
    #expect(output == input)
    #expect(largestChunk <= InflateDecompressor.maximumChunkSize)
  }

  @Test func incompressibleMessagesOfEverySizeRoundTrip() throws {
    // Random bytes defeat compression, so output outgrows input and crosses the output
    // step sizes; the sizes straddle those steps on purpose.
    var generator = SystemRandomNumberGenerator()
    let compressor = try DeflateCompressor()
    let decompressor = try InflateDecompressor()
    for size in [1, 2, 63, 64, 65, 4_095, 16_383, 16_384, 16_385, 65_535, 65_536, 200_000] {
      let message = (0..<size).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
      var wire: [UInt8] = []
      message.withUnsafeBytes { compressor.compress($0, appendingTo: &wire) }
      let decoded = try Self.inflate(wire, with: decompressor)
      try #require(decoded.bytes == message, "size \(size)")
      #expect(decoded.chunkSizes.allSatisfy { $0 <= InflateDecompressor.maximumChunkSize })
    }
  }
}
