import Testing

@testable import Deflate
@testable import ObservableServer

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A tiny input that inflates to something huge must never be materialised at once.
@Suite struct DecompressionBombTests {
  static let bombSize = 100 << 20

  /// About 100 KB on the wire that expands to 100 MiB of zeros.
  static func bomb() throws -> [UInt8] {
    let compressor = try DeflateCompressor(level: 9)
    let zeros = [UInt8](repeating: 0, count: 1 << 20)
    var wire: [UInt8] = []
    for _ in 0..<(bombSize / zeros.count) {
      zeros.withUnsafeBytes { compressor.compress($0, appendingTo: &wire) }
    }
    return wire
  }

  @Test func bombComesOutInPiecesOfAtMost64KiB() throws {
    let wire = try Self.bomb()
    #expect(wire.count < Self.bombSize / 500)
    let decompressor = try InflateDecompressor()
    let zeros = [UInt8](repeating: 0, count: InflateDecompressor.maximumChunkSize)
    var total = 0
    var largest = 0
    var allZero = true
    try wire.withUnsafeBytes { buffer in
      try decompressor.decompress(buffer) { chunk in
        total += chunk.count
        largest = max(largest, chunk.count)
        allZero = allZero && memcmp(chunk.baseAddress!, zeros, chunk.count) == 0
      }
    }
    #expect(total == Self.bombSize)
    #expect(largest <= InflateDecompressor.maximumChunkSize)
    #expect(allZero)
  }

  struct LimitExceeded: Error {}

  @Test func consumerLimitStopsTheBombEarly() throws {
    let wire = try Self.bomb()
    let decompressor = try InflateDecompressor()
    let limit = 1 << 20
    var total = 0
    let error = #expect(throws: CompressionError.self) {
      try wire.withUnsafeBytes { buffer in
        try decompressor.decompress(buffer) { chunk in
          total += chunk.count
          if total > limit { throw LimitExceeded() }
        }
      }
    }
    guard case .consumerFailed(let underlying) = error else {
      Issue.record("expected consumerFailed, got \(String(describing: error))")
      return
    }
    #expect(underlying is LimitExceeded)
    #expect(total <= limit + InflateDecompressor.maximumChunkSize)
  }
}
