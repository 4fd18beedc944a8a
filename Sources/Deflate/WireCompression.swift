import Glibc

/// Both directions of one connection's raw deflate streams (RFC 1951), after `compress`.
///
/// Used on the connection's loop thread only, like the compressor and decompressor it holds.
package final class WireCompression {
  /// Starts both streams; the server's replies and values are compressed at zlib `level`, and
  /// sync-flushed after every line when `flushesEachLine`, else after every write batch.
  package init(
    level: Int = 1, flushesEachLine: Bool = false
  ) throws(CompressionError) {
    compressor = try DeflateCompressor(level: level)
    decompressor = try InflateDecompressor()
    self.flushesEachLine = flushesEachLine
  }

  /// Compresses one write batch and ends it with a sync flush, so the client can decode every
  /// value in it as soon as it arrives.
  package func deflate(_ plain: UnsafeRawBufferPointer, appendingTo out: inout [UInt8]) {
    guard flushesEachLine, let base = plain.baseAddress else {
      compressor.compress(plain, appendingTo: &out)
      return
    }
    // Each line on its own, as a protocol that flushes per message would: the flush markers
    // and the extra deflate calls are what measuring this policy is for.
    var start = 0
    while start < plain.count {
      let newline = memchr(base + start, 0x0A, plain.count - start)
      let end = newline.map { UnsafeRawPointer($0) - base + 1 } ?? plain.count
      compressor.compress(
        UnsafeRawBufferPointer(start: base + start, count: end - start), appendingTo: &out)
      start = end
    }
  }

  private let flushesEachLine: Bool

  /// Decompresses what the client sent and hands the plain bytes on in bounded pieces.
  package func inflate(
    _ compressed: UnsafeRawBufferPointer,
    _ plain: (UnsafeRawBufferPointer) -> Void
  ) throws(CompressionError) {
    try decompressor.decompress(compressed) { plain($0) }
  }

  private let compressor: DeflateCompressor
  private let decompressor: InflateDecompressor
}
