import CZlib
import Glibc

/// The receiving side of a fan-out subscriber that sent `compress`: what arrives is one raw
/// deflate stream (RFC 1951), inflated into the connection's line buffer.
///
/// Compressed bytes are read into a buffer of their own and inflated as far as the line buffer
/// has room; what does not fit stays pending, and ``ClientConnection/read()`` inflates it
/// before reading the socket again, so the caller must read again while ``hasPending``.
/// Belongs to one connection, on the benchmark's one thread.
final class InflatingInput {
  /// Starts a raw inflate stream with a 32 KiB window; `nil` when zlib cannot allocate it.
  init?(capacity: Int = 64 * 1024) {
    stream = .allocate(capacity: 1)
    stream.initialize(to: z_stream())
    guard observable_inflate_init_raw(stream, -15) == Z_OK else {
      stream.deallocate()
      return nil
    }
    self.capacity = capacity
    compressed = .allocate(byteCount: capacity, alignment: 16)
  }

  deinit {
    inflateEnd(stream)
    stream.deallocate()
    compressed.deallocate()
  }

  /// Whether compressed bytes are waiting for room in the line buffer.
  var hasPending: Bool { pendingStart < pendingEnd }

  /// The bytes inflated so far: what the subscriber would have read without compression.
  private(set) var plainBytes = 0

  /// Takes compressed bytes that arrived behind the `compress` reply, in the same read.
  func accept(_ bytes: UnsafeRawBufferPointer) throws(BenchError) {
    guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
    guard pendingEnd + bytes.count <= capacity else {
      throw .unexpected("more compressed bytes behind the compress reply than a buffer holds")
    }
    memcpy(compressed + pendingEnd, base, bytes.count)
    pendingEnd += bytes.count
  }

  /// Inflates into `out` (`room` bytes), reading `descriptor` first when nothing is pending;
  /// returns what the read did and how many plain bytes were written.
  func read(
    from descriptor: Int32, into out: UnsafeMutableRawPointer, room: Int
  ) throws(BenchError) -> (outcome: ClientConnection.ReadOutcome, produced: Int) {
    var outcome = ClientConnection.ReadOutcome.bytes(0)
    if !hasPending {
      let count = Glibc.read(descriptor, compressed, capacity)
      if count == 0 { return (.closed, 0) }
      if count < 0 {
        switch errno {
        case EINTR, EAGAIN, EWOULDBLOCK: return (.wouldBlock, 0)
        case let code: throw .system(call: "read", code: code)
        }
      }
      pendingStart = 0
      pendingEnd = count
      outcome = .bytes(count)
    }
    stream.pointee.next_in = UnsafePointer(
      (compressed + pendingStart).assumingMemoryBound(to: Bytef.self))
    stream.pointee.avail_in = UInt32(pendingEnd - pendingStart)
    stream.pointee.next_out = out.assumingMemoryBound(to: Bytef.self)
    stream.pointee.avail_out = UInt32(room)
    let code = inflate(stream, Z_SYNC_FLUSH)
    defer {
      stream.pointee.next_in = nil
      stream.pointee.next_out = nil
    }
    // Z_BUF_ERROR only says no progress was possible; anything else is a corrupt stream.
    guard code == Z_OK || code == Z_BUF_ERROR else {
      throw .unexpected("the server's compressed stream does not inflate (zlib code \(code))")
    }
    pendingStart = pendingEnd - Int(stream.pointee.avail_in)
    let produced = room - Int(stream.pointee.avail_out)
    plainBytes += produced
    return (outcome, produced)
  }

  // zlib remembers the z_stream's address, so it lives on the heap and never moves.
  private let stream: UnsafeMutablePointer<z_stream>
  private let compressed: UnsafeMutableRawPointer
  private let capacity: Int
  private var pendingStart = 0
  private var pendingEnd = 0
}
