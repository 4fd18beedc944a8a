import CZlib

/// One direction of a compressed connection: a raw deflate stream (RFC 1951) for the client's
/// requests, each write ending in a sync flush so the server can read it at once.
///
/// Not `Sendable`: zlib's state changes with every call. The client keeps it inside the lock
/// that also orders its writes.
final class DeflateStream {
  // zlib remembers the z_stream's address, so it lives on the heap and never moves.
  private let stream: UnsafeMutablePointer<z_stream>

  /// Starts a raw stream with a 32 KiB window; `nil` if zlib cannot allocate it.
  init?() {
    stream = .allocate(capacity: 1)
    stream.initialize(to: z_stream())
    guard observable_deflate_init_raw(stream, 6, -15, 8) == Z_OK else {
      stream.deallocate()
      return nil
    }
  }

  deinit {
    deflateEnd(stream)
    stream.deallocate()
  }

  /// Compresses `input` and returns the bytes to send, sync flush included.
  func compress(_ input: [UInt8]) -> [UInt8] {
    var output: [UInt8] = []
    input.withUnsafeBufferPointer { source in
      stream.pointee.next_in = UnsafePointer(source.baseAddress)
      stream.pointee.avail_in = UInt32(source.count)
      var chunk = [UInt8](repeating: 0, count: 16_384)
      repeat {
        let produced = chunk.withUnsafeMutableBufferPointer { out -> Int in
          stream.pointee.next_out = out.baseAddress
          stream.pointee.avail_out = UInt32(out.count)
          _ = deflate(stream, Z_SYNC_FLUSH)
          return out.count - Int(stream.pointee.avail_out)
        }
        output.append(contentsOf: chunk[..<produced])
        // A full output buffer means zlib may have more to give.
      } while stream.pointee.avail_out == 0
      stream.pointee.next_in = nil
      stream.pointee.next_out = nil
    }
    return output
  }
}
