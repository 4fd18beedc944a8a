/// Both directions of one connection's raw deflate streams (RFC 1951), after `compress`.
///
/// Used on the connection's loop thread only, like the compressor and decompressor it holds.
final class WireCompression {
  init() throws(CompressionError) {
    compressor = try DeflateCompressor()
    decompressor = try InflateDecompressor()
  }

  /// Compresses one write batch and ends it with a sync flush, so the client can decode every
  /// value in it as soon as it arrives.
  func deflate(_ plain: UnsafeRawBufferPointer, appendingTo out: inout [UInt8]) {
    compressor.compress(plain, appendingTo: &out)
  }

  /// Decompresses what the client sent and hands the plain bytes on in bounded pieces.
  func inflate(
    _ compressed: UnsafeRawBufferPointer,
    _ plain: (UnsafeRawBufferPointer) -> Void
  ) throws(CompressionError) {
    try decompressor.decompress(compressed) { plain($0) }
  }

  private let compressor: DeflateCompressor
  private let decompressor: InflateDecompressor
}
