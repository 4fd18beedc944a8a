import Deflate
import Glibc

/// The receiving side of a fan-out subscriber that sent `compress`: what arrives is one raw
/// deflate stream (RFC 1951), inflated into the connection's line buffer.
///
/// Compressed bytes are read into a buffer of their own and inflated as far as the line buffer
/// has room; what does not fit stays pending, and ``ClientConnection/read()`` inflates it
/// before reading the socket again, so the caller must read again while ``hasPending``.
/// The zlib calls are the shared ``InflateDecompressor``'s, one call per read straight into the
/// line buffer. Belongs to one connection, on the benchmark's one thread.
final class InflatingInput {
  /// Starts a raw inflate stream with a 32 KiB window; `nil` when zlib cannot allocate it.
  init?(capacity: Int = 64 * 1024) {
    guard let stream = try? InflateDecompressor() else { return nil }
    self.stream = stream
    self.capacity = capacity
    compressed = .allocate(byteCount: capacity, alignment: 16)
  }

  deinit {
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
    let consumed: Int
    let produced: Int
    do {
      (consumed, produced) = try stream.inflate(
        UnsafeRawBufferPointer(start: compressed + pendingStart, count: pendingEnd - pendingStart),
        into: UnsafeMutableRawBufferPointer(start: out, count: room))
    } catch {
      throw .unexpected("the server's compressed stream does not inflate (\(error))")
    }
    pendingStart += consumed
    plainBytes += produced
    return (outcome, produced)
  }

  private let stream: InflateDecompressor
  private let compressed: UnsafeMutableRawPointer
  private let capacity: Int
  private var pendingStart = 0
  private var pendingEnd = 0
}
