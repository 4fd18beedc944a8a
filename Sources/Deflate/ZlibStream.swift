import CZlib

/// The allocation a zlib stream needs, shared by the compressor and the decompressor.
///
/// zlib keeps pointers into its `z_stream`, so the struct must not move: it lives on the heap
/// for the life of its owner.
package enum ZlibStream {
  /// Allocates a stream and lets `initialize` set it up (`deflateInit2`, `inflateInit2`);
  /// frees it again and throws when zlib refuses.
  package static func make(
    _ initialize: (UnsafeMutablePointer<z_stream>) -> Int32
  ) throws(CompressionError) -> UnsafeMutablePointer<z_stream> {
    let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
    stream.initialize(to: z_stream())
    let code = initialize(stream)
    guard code == Z_OK else {
      let message = CompressionError.zlibMessage(stream.pointee, code: code)
      release(stream)
      throw .initializationFailed(code: code, message: message)
    }
    return stream
  }

  /// Frees a stream whose zlib state has been ended (or never began).
  package static func release(_ stream: UnsafeMutablePointer<z_stream>) {
    stream.deinitialize(count: 1)
    stream.deallocate()
  }
}
