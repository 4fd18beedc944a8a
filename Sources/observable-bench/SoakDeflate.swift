import CZlib

/// Both directions of a soak client's compressed connection: raw deflate (RFC 1951) for its
/// requests, each batch ending in a sync flush so the server can act on it at once, and raw
/// inflate for what the server sends after the `compress` reply.
///
/// Belongs to one soak client, on the load thread.
final class SoakDeflate {
  /// Starts both streams with 32 KiB windows; `nil` when zlib cannot allocate them.
  init?() {
    outgoing = .allocate(capacity: 1)
    outgoing.initialize(to: z_stream())
    incoming = .allocate(capacity: 1)
    incoming.initialize(to: z_stream())
    guard observable_deflate_init_raw(outgoing, 6, -15, 8) == Z_OK else {
      outgoing.deallocate()
      incoming.deallocate()
      return nil
    }
    guard observable_inflate_init_raw(incoming, -15) == Z_OK else {
      deflateEnd(outgoing)
      outgoing.deallocate()
      incoming.deallocate()
      return nil
    }
  }

  deinit {
    deflateEnd(outgoing)
    inflateEnd(incoming)
    outgoing.deallocate()
    incoming.deallocate()
  }

  /// The compressed form of `plain`, sync flush included.
  func compress(_ plain: [UInt8]) -> [UInt8]? {
    run(outgoing, plain) { deflate($0, Z_SYNC_FLUSH) }
  }

  /// The text of `compressed`; `nil` when it is not a valid deflate stream or the text would
  /// pass `limit` bytes, so that a runaway stream cannot fill the benchmark's memory.
  func decompress(_ compressed: ArraySlice<UInt8>, limit: Int) -> [UInt8]? {
    run(incoming, compressed, limit: limit) { inflate($0, Z_SYNC_FLUSH) }
  }

  // zlib remembers each z_stream's address, so both live on the heap and never move.
  private let outgoing: UnsafeMutablePointer<z_stream>
  private let incoming: UnsafeMutablePointer<z_stream>
  private var chunk = [UInt8](repeating: 0, count: 16_384)

  /// Feeds `input` to `step` until zlib has consumed it and flushed everything it holds.
  private func run<Input: Collection<UInt8>>(
    _ stream: UnsafeMutablePointer<z_stream>, _ input: Input, limit: Int = .max,
    step: (UnsafeMutablePointer<z_stream>) -> Int32
  ) -> [UInt8]? {
    let contiguous = Array(input)
    var output: [UInt8] = []
    let succeeded = contiguous.withUnsafeBufferPointer { source -> Bool in
      stream.pointee.next_in = source.baseAddress
      stream.pointee.avail_in = UInt32(source.count)
      defer { stream.pointee.next_in = nil }
      while true {
        let (code, produced) = chunk.withUnsafeMutableBufferPointer { out -> (Int32, Int) in
          stream.pointee.next_out = out.baseAddress
          stream.pointee.avail_out = UInt32(out.count)
          defer { stream.pointee.next_out = nil }
          let code = step(stream)
          return (code, out.count - Int(stream.pointee.avail_out))
        }
        guard code == Z_OK || code == Z_BUF_ERROR else { return false }
        output.append(contentsOf: chunk[..<produced])
        guard output.count <= limit else { return false }
        // A full output chunk means zlib may hold more; otherwise the input is used up.
        if produced < chunk.count, stream.pointee.avail_in == 0 { return true }
        if code == Z_BUF_ERROR, produced == 0 { return stream.pointee.avail_in == 0 }
      }
    }
    return succeeded ? output : nil
  }
}
