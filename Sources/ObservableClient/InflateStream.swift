import CZlib

/// The server's direction of a compressed connection: a raw deflate stream (RFC 1951) inflated
/// as bytes arrive.
///
/// Output is appended in steps of at most 64 KiB and the caller checks its line limit after each
/// step, so a small input that inflates to gigabytes stops at the limit instead of filling memory.
/// Not `Sendable`: it belongs to the connection's reader thread.
final class InflateStream {
  // zlib remembers the z_stream's address, so it lives on the heap and never moves.
  private let stream: UnsafeMutablePointer<z_stream>
  private var chunk = [UInt8](repeating: 0, count: 65_536)

  /// Starts a raw stream with up to a 32 KiB window; `nil` if zlib cannot allocate it.
  init?() {
    stream = .allocate(capacity: 1)
    stream.initialize(to: z_stream())
    guard observable_inflate_init_raw(stream, -15) == Z_OK else {
      stream.deallocate()
      return nil
    }
  }

  deinit {
    inflateEnd(stream)
    stream.deallocate()
  }

  /// Inflates `input`, passing each piece of output to `take`; `take` returns `false` to stop.
  ///
  /// - Returns: `false` when the input is not a valid deflate stream or `take` stopped.
  func inflate(_ input: ArraySlice<UInt8>, into take: (ArraySlice<UInt8>) -> Bool) -> Bool {
    let stream = self.stream
    return input.withUnsafeBufferPointer { source -> Bool in
      stream.pointee.next_in = UnsafePointer(source.baseAddress)
      stream.pointee.avail_in = UInt32(source.count)
      defer { stream.pointee.next_in = nil }
      repeat {
        let (code, produced) = chunk.withUnsafeMutableBufferPointer { out -> (Int32, Int) in
          stream.pointee.next_out = out.baseAddress
          stream.pointee.avail_out = UInt32(out.count)
          let code = CZlib.inflate(stream, Z_SYNC_FLUSH)
          stream.pointee.next_out = nil
          return (code, out.count - Int(stream.pointee.avail_out))
        }
        guard code == Z_OK || code == Z_BUF_ERROR else { return false }
        if produced > 0, !take(chunk[..<produced]) { return false }
        if code == Z_BUF_ERROR { break }
      } while stream.pointee.avail_in > 0 || stream.pointee.avail_out == 0
      return true
    }
  }
}
