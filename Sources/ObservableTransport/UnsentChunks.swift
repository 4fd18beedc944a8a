import Glibc
import ObservableFraming

/// The chunks a connection took from its ``Outbox`` to write as they are, with how far the
/// socket took them: the line protocol's lines, SSE events and shared WebSocket frames, on a
/// connection that neither compresses nor encrypts. They go out by one `sendmsg` over the
/// shared arrays themselves, so no byte is copied for the connection.
///
/// A partial send resumes inside the chunk it stopped in; once every byte is sent the chunks
/// are released at once, so an idle connection holds no delivery. Loop thread only, as its
/// connection.
struct UnsentChunks {
  /// How many bytes of the chunks are not sent yet.
  private(set) var count = 0

  /// Replaces the sent chunks with what `outbox` holds; returns how many bytes it took.
  mutating func take(from outbox: Outbox) -> Int {
    index = 0
    offset = 0
    outbox.take(chunks: &taken, inFlight: 0)
    count = taken.byteCount
    return count
  }

  /// Counts `sent` bytes as taken by the socket, at most ``count``; returns how many of them
  /// were chunk bytes.
  mutating func sent(_ sent: Int) -> Int {
    let fromChunks = min(sent, count)
    count -= fromChunks
    guard count > 0 else {
      release()
      return fromChunks
    }
    var left = fromChunks
    while left > 0 {
      let rest = taken.chunks[index].bytes.count - offset
      guard left >= rest else {
        offset += left
        break
      }
      left -= rest
      index += 1
      offset = 0
    }
    return fromChunks
  }

  /// Drops every chunk, sent or not.
  mutating func release() {
    taken.removeAll()
    count = 0
    index = 0
    offset = 0
  }

  /// Points `iovecs`, from the first, at the bytes not sent yet, as many chunks as fit;
  /// returns how many it filled.
  ///
  /// The pointers outlive the arrays' `withUnsafeBytes`: the chunks are immutable and held
  /// here, unchanged, until the send they are for has completed, so their storage stays where
  /// it is.
  func gather(into iovecs: UnsafeMutableBufferPointer<iovec>) -> Int {
    var filled = 0
    var chunk = index
    var skip = offset
    while filled < iovecs.count, chunk < taken.chunks.count {
      taken.chunks[chunk].bytes.withUnsafeBytes { bytes in
        iovecs[filled] = iovec(
          iov_base: UnsafeMutableRawPointer(mutating: bytes.baseAddress! + skip),
          iov_len: bytes.count - skip)
      }
      filled += 1
      chunk += 1
      skip = 0
    }
    return filled
  }

  /// The chunk being sent and where in it the socket stopped; `nil` when all is sent.
  func withCurrentChunk<Value>(_ body: (UnsafeRawBufferPointer, Int) -> Value) -> Value? {
    guard count > 0 else { return nil }
    return taken.chunks[index].bytes.withUnsafeBytes { body($0, offset) }
  }

  /// The chunks, for a send in flight to hold.
  var held: [OutboxChunk] { taken.chunks }

  /// The chunks taken, of which those before ``index`` are sent.
  private var taken = OutboxChunks()
  /// The chunk being sent.
  private var index = 0
  /// How many bytes of the chunk being sent the socket took.
  private var offset = 0
}
