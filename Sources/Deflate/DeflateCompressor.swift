import CZlib

/// Compresses one direction of a connection as a single raw deflate stream (RFC 1951), the
/// way IMAP `COMPRESS=DEFLATE` (RFC 4978) does.
///
/// The stream lives as long as the connection rather than being restarted per message, so
/// each message is compressed against the history of the earlier ones; that is where most
/// of the gain on small, repetitive JSON lines comes from. Every ``compress(_:appendingTo:)``
/// ends with a sync flush, so the peer can decode everything sent so far without waiting for
/// more data.
///
/// Not `Sendable`: every call mutates zlib's stream state, so an instance belongs to one
/// connection and must be used from one thread at a time (for instance the connection's
/// writer). Calls from different threads must be ordered by the caller.
package final class DeflateCompressor {
  /// The level used when none is given; zlib's own default trade-off of speed and size.
  static let defaultLevel = 6

  /// Heap-allocated because zlib remembers the `z_stream`'s address in its internal state
  /// and rejects calls made through a copy, and a stored struct property may move.
  private let stream: UnsafeMutablePointer<z_stream>

  /// The most output space one `deflate` call gets; more output takes more calls. The space
  /// is zero-filled in `out` before zlib writes, so it is kept modest.
  private static let maximumOutputStep = 16 * 1024
  /// The least output space one call gets: well above the six bytes zlib asks for so that a
  /// sync flush marker is not split across calls.
  private static let minimumOutputStep = 64

  /// Creates a raw deflate stream (no zlib header or trailer).
  ///
  /// - Parameters:
  ///   - level: 0 (store) to 9 (smallest), or -1 for zlib's default.
  ///   - windowBits: the window, 2^windowBits bytes (9...15); 15 is 32 KiB.
  ///   - memoryLevel: how much memory zlib's state uses (1...9), 8 by default.
  /// - Throws: ``CompressionError/initializationFailed(code:message:)`` when zlib rejects
  ///   a parameter or cannot allocate its state.
  package init(
    level: Int = DeflateCompressor.defaultLevel, windowBits: Int = 15, memoryLevel: Int = 8
  ) throws(CompressionError) {
    stream = try ZlibStream.make {
      observable_deflate_init_raw(
        $0, Int32(clamping: level), -Int32(clamping: windowBits), Int32(clamping: memoryLevel))
    }
  }

  deinit {
    deflateEnd(stream)
    ZlibStream.release(stream)
  }

  /// Compresses `input` and appends the result, ending with a sync flush, to `out`.
  ///
  /// After the call, `out` holds everything the peer needs to decode all input given so
  /// far; nothing is held back inside zlib. An empty `input` appends nothing, because the
  /// previous call already flushed.
  package func compress(_ input: UnsafeRawBufferPointer, appendingTo out: inout [UInt8]) {
    guard let base = input.baseAddress, !input.isEmpty else { return }
    // avail_in is 32 bits wide; only the final slice carries the flush.
    var offset = 0
    while offset < input.count {
      let length = min(input.count - offset, Int(UInt32.max))
      stream.pointee.next_in = UnsafePointer((base + offset).assumingMemoryBound(to: Bytef.self))
      stream.pointee.avail_in = UInt32(length)
      offset += length
      // Sized from zlib's worst case for this input plus room for the flush marker, so a
      // small message needs one call and does not pay for a full step of zero-filling.
      let expected = Int(clamping: deflateBound(stream, UInt(length))) + 16
      deflatePendingInput(
        flush: offset == input.count ? Z_SYNC_FLUSH : Z_NO_FLUSH, firstStep: expected,
        into: &out)
    }
    // Drop the borrowed pointer so zlib never holds a reference to the caller's buffer.
    stream.pointee.next_in = nil
  }

  /// Appends a sync flush marker alone: what an empty message compresses to (an empty stored
  /// block and `00 00 ff ff`), which ``compress(_:appendingTo:)`` leaves out.
  package func flush(appendingTo out: inout [UInt8]) {
    deflatePendingInput(flush: Z_SYNC_FLUSH, firstStep: Self.minimumOutputStep, into: &out)
  }

  /// Forgets the history, so the next input is compressed as if the stream were new (for
  /// instance a protocol that compresses each message without context takeover).
  package func reset() {
    deflateReset(stream)
  }

  /// Runs `deflate` until it has consumed all pending input and, for a flush, emitted all of
  /// its output; zlib signals "more to come" by filling the output space completely.
  private func deflatePendingInput(flush: Int32, firstStep: Int, into out: inout [UInt8]) {
    var step = min(max(firstStep, Self.minimumOutputStep), Self.maximumOutputStep)
    repeat {
      let start = out.count
      out.append(contentsOf: repeatElement(0, count: step))
      let produced = out.withUnsafeMutableBufferPointer { buffer in
        stream.pointee.next_out = buffer.baseAddress! + start
        stream.pointee.avail_out = UInt32(step)
        let code = deflate(stream, flush)
        stream.pointee.next_out = nil
        // Z_BUF_ERROR only reports that no progress was possible (a repeated flush);
        // Z_STREAM_ERROR means the stream state is corrupt, which is a bug, not bad input.
        precondition(
          code == Z_OK || code == Z_BUF_ERROR,
          "deflate failed: \(CompressionError.zlibMessage(stream.pointee, code: code))")
        return step - Int(stream.pointee.avail_out)
      }
      out.removeLast(step - produced)
      step = Self.maximumOutputStep
    } while stream.pointee.avail_out == 0
  }
}
