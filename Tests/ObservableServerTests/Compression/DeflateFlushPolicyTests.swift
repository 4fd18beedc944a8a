import Testing

@testable import Deflate
@testable import ObservableServer

/// The server side of `compress` at each level and flush policy (`--deflate-level`, and the
/// per-line flush kept to measure its cost): whatever the setting, the client inflates exactly
/// what was sent.
@Suite struct DeflateFlushPolicyTests {
  /// Lines like those a topic sends, varied so compression has real work to do.
  static let lines: [UInt8] = Array(
    (0..<200).map { #"{"stream":"room.\#($0 % 7)","value":{"temp":\#($0 % 31).5}}"# + "\n" }
      .joined().utf8)

  /// Sync flush markers (an empty stored block, whose length fields read 00 00 FF FF).
  static func flushCount(_ wire: [UInt8]) -> Int {
    guard wire.count >= 4 else { return 0 }
    return (0...(wire.count - 4)).count { wire[$0..<($0 + 4)].elementsEqual([0, 0, 0xFF, 0xFF]) }
  }

  static func compressed(level: Int, flushesEachLine: Bool) throws -> [UInt8] {
    let codec = try WireCompression(level: level, flushesEachLine: flushesEachLine)
    var wire: [UInt8] = []
    lines.withUnsafeBytes { codec.deflate($0, appendingTo: &wire) }
    return wire
  }

  static func inflated(_ wire: [UInt8]) throws -> [UInt8] {
    let decompressor = try InflateDecompressor()
    var plain: [UInt8] = []
    try wire.withUnsafeBytes { try decompressor.decompress($0) { plain.append(contentsOf: $0) } }
    return plain
  }

  @Test(arguments: [0, 1, 6, 9])
  func everyLevelInflatesToTheLinesSent(level: Int) throws {
    let wire = try Self.compressed(level: level, flushesEachLine: false)
    #expect(try Self.inflated(wire) == Self.lines)
    #expect(wire.suffix(4) == [0, 0, 0xFF, 0xFF])
  }

  @Test func higherLevelsTradeCPUForFewerBytes() throws {
    let stored = try Self.compressed(level: 0, flushesEachLine: false)
    let fastest = try Self.compressed(level: 1, flushesEachLine: false)
    let smallest = try Self.compressed(level: 9, flushesEachLine: false)
    #expect(stored.count > Self.lines.count)
    #expect(fastest.count * 4 < Self.lines.count)
    #expect(smallest.count <= fastest.count)
  }

  @Test func flushingEachLineEndsEveryLineDecodably() throws {
    let perLine = try Self.compressed(level: 1, flushesEachLine: true)
    let perWrite = try Self.compressed(level: 1, flushesEachLine: false)
    #expect(try Self.inflated(perLine) == Self.lines)
    #expect(Self.flushCount(perLine) >= 200)
    #expect(Self.flushCount(perWrite) == 1)
    #expect(perLine.count > perWrite.count)
  }

  @Test func theServerCompressesAtLevelOneUnlessToldOtherwise() {
    #expect(ServerConfiguration().deflateLevel == 1)
    #expect(!ServerConfiguration().deflateFlushesEachLine)
  }
}
