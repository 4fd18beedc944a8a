import CZlib

/// Decompresses one direction of a connection that the peer compresses as a single raw
/// deflate stream (RFC 1951), as in IMAP `COMPRESS=DEFLATE` (RFC 4978).
///
/// Output is handed out in pieces of at most ``maximumChunkSize`` bytes from one buffer
/// allocated up front, so a decompression bomb (a few kilobytes that expand to gigabytes)
/// never makes this type allocate more; the consumer enforces its own limits (such as the
/// maximum line length) and throws to stop the stream.
///
/// End of stream: RFC 4978 keeps compression on for the rest of the connection, so a peer
/// that ends its deflate stream (a final block) can send nothing valid afterwards. Output
/// up to the end is still delivered; any byte after it throws
/// ``CompressionError/inputAfterStreamEnd(byteCount:)`` instead of being silently dropped,
/// because dropping it would hide a broken or hostile peer.
///
/// A protocol that may end the stream inside a message and start a new one (permessage-deflate,
/// RFC 7692) sets `restartsAtStreamEnd`: the window is reset there and inflating goes on.
///
/// After any thrown error the stream position is unknown, so later calls throw
/// ``CompressionError/streamUnusable``; the connection should be closed.
///
/// Not `Sendable`: every call mutates zlib's stream state, so an instance belongs to one
/// connection and must be used from one thread at a time (for instance the connection's
/// reader).
package final class InflateDecompressor {
  /// The largest piece of output handed to the consumer at once, unless the creator chose less.
  static let maximumChunkSize = 64 * 1024

  /// Where the stream stands, so misuse after an end or a failure is reported clearly.
  private enum Phase {
    case streaming
    case ended
    case failed
  }

  /// Heap-allocated because zlib remembers the `z_stream`'s address in its internal state
  /// and rejects calls made through a copy, and a stored struct property may move.
  private let stream: UnsafeMutablePointer<z_stream>
  /// The only output buffer, reused for every piece; this bounds memory per connection.
  /// Allocated on the first ``decompress(_:chunk:)``, so a reader that only inflates into its
  /// own buffer (``inflate(_:into:)``) never pays for it.
  private var output: UnsafeMutableRawBufferPointer?
  private let chunkSize: Int
  private let restartsAtStreamEnd: Bool
  private var phase = Phase.streaming

  /// Creates a raw inflate stream (no zlib header or trailer).
  ///
  /// - Parameters:
  ///   - windowBits: the largest window the peer may use, 2^windowBits bytes (8...15).
  ///   - chunkSize: the largest piece handed to the consumer at once.
  ///   - restartsAtStreamEnd: whether a final block starts a new stream instead of ending it.
  /// - Throws: ``CompressionError/initializationFailed(code:message:)`` when zlib cannot
  ///   allocate its state.
  package init(
    windowBits: Int = 15, chunkSize: Int = InflateDecompressor.maximumChunkSize,
    restartsAtStreamEnd: Bool = false
  ) throws(CompressionError) {
    stream = try ZlibStream.make { observable_inflate_init_raw($0, -Int32(clamping: windowBits)) }
    self.chunkSize = max(1, min(chunkSize, Self.maximumChunkSize))
    self.restartsAtStreamEnd = restartsAtStreamEnd
  }

  deinit {
    inflateEnd(stream)
    ZlibStream.release(stream)
    output?.deallocate()
  }

  /// Forgets the window and any earlier end or failure, so the next input starts a new stream.
  package func reset() {
    inflateReset(stream)
    phase = .streaming
  }

  /// Inflates `input` and passes the output, as far as `input` allows, to `chunk`.
  ///
  /// Input may be cut anywhere; zlib keeps partial blocks until the rest arrives. The buffer
  /// given to `chunk` is reused afterwards, so `chunk` must copy what it keeps.
  ///
  /// - Throws: ``CompressionError/corruptInput(message:)`` with zlib's message for invalid
  ///   data, ``CompressionError/consumerFailed(_:)`` wrapping whatever `chunk` threw,
  ///   ``CompressionError/inputAfterStreamEnd(byteCount:)``, or
  ///   ``CompressionError/streamUnusable`` after an earlier failure.
  package func decompress(
    _ input: UnsafeRawBufferPointer,
    chunk: (UnsafeRawBufferPointer) throws -> Void
  ) throws(CompressionError) {
    guard try accepts(input), let base = input.baseAddress else { return }
    let output = self.output ?? .allocate(byteCount: chunkSize, alignment: 1)
    self.output = output
    do throws(CompressionError) {
      // avail_in is 32 bits wide, so very large input is fed in slices.
      var offset = 0
      while offset < input.count, phase == .streaming {
        let length = min(input.count - offset, Int(UInt32.max))
        stream.pointee.next_in = UnsafePointer(
          (base + offset).assumingMemoryBound(to: Bytef.self))
        stream.pointee.avail_in = UInt32(length)
        offset += length
        try inflatePendingInput(into: output, chunk: chunk)
        let unread = Int(stream.pointee.avail_in) + (input.count - offset)
        if phase == .ended, unread > 0 {
          throw CompressionError.inputAfterStreamEnd(byteCount: unread)
        }
      }
      stream.pointee.next_in = nil
    } catch {
      stream.pointee.next_in = nil
      phase = .failed
      throw error
    }
  }

  /// One zlib call from `input` straight into `output`, for a reader that inflates into its own
  /// buffer and keeps what zlib did not take for the next call.
  ///
  /// - Returns: how many bytes of `input` zlib took, and how many it wrote into `output`.
  /// - Throws: as ``decompress(_:chunk:)`` does, apart from the consumer's errors.
  package func inflate(
    _ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer
  ) throws(CompressionError) -> (consumed: Int, produced: Int) {
    guard try accepts(input), let base = input.baseAddress else { return (0, 0) }
    let length = min(input.count, Int(UInt32.max))
    stream.pointee.next_in = UnsafePointer(base.assumingMemoryBound(to: Bytef.self))
    stream.pointee.avail_in = UInt32(length)
    defer { stream.pointee.next_in = nil }
    do throws(CompressionError) {
      let (_, produced) = try step(into: output)
      return (length - Int(stream.pointee.avail_in), produced)
    } catch {
      phase = .failed
      throw error
    }
  }

  /// Whether there is input to inflate in the current phase; throws where there may be none.
  private func accepts(_ input: UnsafeRawBufferPointer) throws(CompressionError) -> Bool {
    switch phase {
    case .failed:
      throw .streamUnusable
    case .ended:
      guard input.isEmpty else {
        phase = .failed
        throw .inputAfterStreamEnd(byteCount: input.count)
      }
      return false
    case .streaming:
      return !input.isEmpty
    }
  }

  /// Runs `inflate` until the pending input is used up or the stream ends; zlib signals that
  /// more output may be waiting by filling the output buffer completely.
  private func inflatePendingInput(
    into output: UnsafeMutableRawBufferPointer,
    chunk: (UnsafeRawBufferPointer) throws -> Void
  ) throws(CompressionError) {
    var restarted = false
    repeat {
      let (code, produced) = try step(into: output)
      if produced > 0 {
        do {
          try chunk(UnsafeRawBufferPointer(rebasing: output[..<produced]))
        } catch {
          throw .consumerFailed(error)
        }
      }
      // After a restart, what followed the final block is still to be inflated.
      restarted = code == Z_STREAM_END && stream.pointee.avail_in > 0
    } while phase == .streaming && (stream.pointee.avail_out == 0 || restarted)
  }

  /// One `inflate` call over the input already set, into `output`; moves the phase on at the
  /// end of the stream and throws for a failure.
  private func step(
    into output: UnsafeMutableRawBufferPointer
  ) throws(CompressionError) -> (code: Int32, produced: Int) {
    let room = min(output.count, Int(UInt32.max))
    stream.pointee.next_out = output.baseAddress!.assumingMemoryBound(to: Bytef.self)
    stream.pointee.avail_out = UInt32(room)
    let code = CZlib.inflate(stream, Z_NO_FLUSH)
    stream.pointee.next_out = nil
    switch code {
    case Z_OK, Z_BUF_ERROR:
      // Z_BUF_ERROR only reports that no progress was possible without more input.
      break
    case Z_STREAM_END:
      if restartsAtStreamEnd {
        inflateReset(stream)
      } else {
        phase = .ended
      }
    case Z_DATA_ERROR, Z_NEED_DICT:
      // A raw stream has no dictionary header, so Z_NEED_DICT can only mean bad data.
      throw .corruptInput(message: CompressionError.zlibMessage(stream.pointee, code: code))
    default:
      throw .streamFailed(
        code: code, message: CompressionError.zlibMessage(stream.pointee, code: code))
    }
    return (code, room - Int(stream.pointee.avail_out))
  }
}
