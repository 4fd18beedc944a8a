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
/// After any thrown error the stream position is unknown, so later calls throw
/// ``CompressionError/streamUnusable``; the connection should be closed.
///
/// Not `Sendable`: every call mutates zlib's stream state, so an instance belongs to one
/// connection and must be used from one thread at a time (for instance the connection's
/// reader).
package final class InflateDecompressor {
  /// The largest piece of output handed to the consumer at once.
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
  private let output: UnsafeMutableRawBufferPointer
  private var phase = Phase.streaming

  /// Creates a raw inflate stream (no zlib header or trailer, up to a 32 KiB window).
  ///
  /// - Throws: ``CompressionError/initializationFailed(code:message:)`` when zlib cannot
  ///   allocate its state.
  package init() throws(CompressionError) {
    stream = try ZlibStream.make { observable_inflate_init_raw($0, -15) }
    output = .allocate(byteCount: Self.maximumChunkSize, alignment: 1)
  }

  deinit {
    inflateEnd(stream)
    ZlibStream.release(stream)
    output.deallocate()
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
    switch phase {
    case .failed:
      throw .streamUnusable
    case .ended:
      guard input.isEmpty else {
        phase = .failed
        throw .inputAfterStreamEnd(byteCount: input.count)
      }
      return
    case .streaming:
      break
    }
    guard let base = input.baseAddress, !input.isEmpty else { return }
    do throws(CompressionError) {
      // avail_in is 32 bits wide, so very large input is fed in slices.
      var offset = 0
      while offset < input.count, phase == .streaming {
        let length = min(input.count - offset, Int(UInt32.max))
        stream.pointee.next_in = UnsafePointer(
          (base + offset).assumingMemoryBound(to: Bytef.self))
        stream.pointee.avail_in = UInt32(length)
        offset += length
        try inflatePendingInput(chunk: chunk)
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

  /// Runs `inflate` until the pending input is used up or the stream ends; zlib signals that
  /// more output may be waiting by filling the output buffer completely.
  private func inflatePendingInput(
    chunk: (UnsafeRawBufferPointer) throws -> Void
  ) throws(CompressionError) {
    repeat {
      stream.pointee.next_out = output.baseAddress!.assumingMemoryBound(to: Bytef.self)
      stream.pointee.avail_out = UInt32(output.count)
      let code = inflate(stream, Z_NO_FLUSH)
      stream.pointee.next_out = nil
      switch code {
      case Z_OK, Z_BUF_ERROR:
        // Z_BUF_ERROR only reports that no progress was possible without more input.
        break
      case Z_STREAM_END:
        phase = .ended
      case Z_DATA_ERROR, Z_NEED_DICT:
        // A raw stream has no dictionary header, so Z_NEED_DICT can only mean bad data.
        throw .corruptInput(message: CompressionError.zlibMessage(stream.pointee, code: code))
      default:
        throw .streamFailed(
          code: code, message: CompressionError.zlibMessage(stream.pointee, code: code))
      }
      let produced = output.count - Int(stream.pointee.avail_out)
      if produced > 0 {
        do {
          try chunk(UnsafeRawBufferPointer(rebasing: output[..<produced]))
        } catch {
          throw .consumerFailed(error)
        }
      }
    } while stream.pointee.avail_out == 0 && phase == .streaming
  }
}
