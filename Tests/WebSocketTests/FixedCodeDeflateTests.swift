import XCTest

@testable import Deflate
@testable import WebSocket

/// Short messages without context takeover are compressed by ``FixedCodeDeflater`` instead of
/// zlib: zlib's inflater must read them back, in every window, and they must stay about as
/// small as zlib's.
final class FixedCodeDeflateTests: XCTestCase {
  /// Messages of every length up to the largest compressed with fixed codes: JSON lines with
  /// repeats, runs of one byte (matches up to the whole message), and random bytes of every
  /// value (the 8- and 9-bit literal codes).
  private func shortMessages() -> [[UInt8]] {
    var generator = SystemRandomNumberGenerator()
    var messages: [[UInt8]] = []
    for length in 1...FixedCodeDeflater.largestMessage {
      let json = Array(
        #"{"stream":"prices.EURUSD","value":{"bid":1.0812,"ask":1.0815,"ts":1764130000"#.utf8)
      let repeated = (0..<length).map { json[($0 * 7 + length) % json.count] }
      messages.append(Array((json + json).prefix(length)))
      messages.append(repeated)
      messages.append([UInt8](repeating: UInt8(length), count: length))
      messages.append((0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) })
    }
    return messages
  }

  func testZlibInflatesShortMessagesInEveryWindow() throws {
    let messages = shortMessages()
    for windowBits: Int32 in [9, 12, 15] {
      let deflater = try PerMessageDeflater(windowBits: windowBits, contextTakeover: false)
      // One inflater for all, as a peer keeps it: each message must stand alone.
      let inflater = try PerMessageInflater(windowBits: windowBits, contextTakeover: false)
      for message in messages {
        try deflater.compress(message)
        var inflated: [UInt8] = []
        try deflater.compressed.withUnsafeBytes {
          try inflater.inflate($0, appendingTo: &inflated, limit: 1 << 16)
        }
        try inflater.finishMessage(appendingTo: &inflated, limit: 1 << 16)
        XCTAssertEqual(inflated, message, "window \(windowBits), \(message.count) bytes")
      }
    }
  }

  /// The same bytes zlib would have made are not expected, only about as few of them: the
  /// fixed codes are what zlib picks for blocks this short too.
  func testShortMessagesAreNearlyAsSmallAsZlibs() throws {
    let lines = [
      #"{"stream":"cost.ws-shared.100.0","value":"vvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvv"}"#,
      #"{"stream":"b","value":12345}"#,
      #"{"stream":"prices.EURUSD","value":{"bid":1.08123,"ask":1.08157,"ts":1764130000123}}"#,
    ]
    let zlib = try DeflateCompressor(level: 6, windowBits: 12, memoryLevel: 5)
    let deflater = try PerMessageDeflater(windowBits: 12, contextTakeover: false)
    for line in lines {
      var zlibBytes: [UInt8] = []
      line.utf8.withContiguousStorageIfAvailable {
        zlib.compress(UnsafeRawBufferPointer($0), appendingTo: &zlibBytes)
      }
      zlib.reset()
      try deflater.compress(Array(line.utf8))
      // zlib's output still ends with the sync flush's four bytes.
      XCTAssertLessThanOrEqual(deflater.compressed.count, zlibBytes.count - 4 + 3, line)
      // A line as short as the counter's does not shrink, with zlib either.
      if line.utf8.count > 60 {
        XCTAssertLessThan(deflater.compressed.count, line.utf8.count, line)
      }
    }
  }
}
