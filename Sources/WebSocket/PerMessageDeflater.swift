import CZlib

/// Compresses outgoing messages for permessage-deflate (RFC 7692 section 7.2.1).
///
/// Not thread-safe: one per connection, used on the connection's loop only. The compressed
/// bytes of the latest message stay in `compressed` until the next call, so the frame
/// encoder can write the length before copying them.
public final class PerMessageDeflater {
  private let stream: UnsafeMutablePointer<z_stream>
  private let resetsAfterMessage: Bool
  /// The latest message's compressed payload, the sync flush's `00 00 ff ff` removed.
  public private(set) var compressed: [UInt8] = []
  /// Where zlib writes, in pieces, so no buffer the size of the message is zero-filled.
  private var chunk = [UInt8](repeating: 0, count: 16 * 1024)

  /// Compresses with `parameters.deflateWindowBits`, and without context takeover when the
  /// negotiation said `server_no_context_takeover`.
  public convenience init(_ parameters: PerMessageDeflateParameters) throws(ZlibFailure) {
    try self.init(
      windowBits: parameters.deflateWindowBits, level: parameters.compressionLevel,
      memoryLevel: parameters.memoryLevel, contextTakeover: !parameters.serverNoContextTakeover)
  }

  /// Compresses with a raw deflate window of `windowBits` (9...15).
  public init(
    windowBits: Int32, level: Int32 = 6, memoryLevel: Int32 = 8, contextTakeover: Bool = true
  ) throws(ZlibFailure) {
    stream = try ZlibFailure.makeStream {
      observable_deflate_init_raw($0, level, -min(15, max(9, windowBits)), memoryLevel)
    }
    resetsAfterMessage = !contextTakeover
  }

  deinit {
    deflateEnd(stream)
    stream.deinitialize(count: 1)
    stream.deallocate()
  }

  /// Compresses one whole message into `compressed`.
  public func compress(_ message: UnsafeRawBufferPointer) throws(ZlibFailure) {
    // A large message's buffer is not kept for the rest of the connection.
    if compressed.capacity > 64 * 1024 {
      compressed = []
    } else {
      compressed.removeAll(keepingCapacity: true)
    }
    stream.pointee.next_in = message.baseAddress?.assumingMemoryBound(to: Bytef.self)
    stream.pointee.avail_in = uInt(message.count)
    defer {
      stream.pointee.next_in = nil
      stream.pointee.avail_in = 0
    }
    var code: Int32 = Z_OK
    repeat {
      var produced = 0
      chunk.withUnsafeMutableBufferPointer { buffer in
        stream.pointee.next_out = buffer.baseAddress!
        stream.pointee.avail_out = uInt(buffer.count)
        code = deflate(stream, Z_SYNC_FLUSH)
        produced = buffer.count - Int(stream.pointee.avail_out)
        stream.pointee.next_out = nil
      }
      guard code == Z_OK || code == Z_BUF_ERROR else {
        throw ZlibFailure(code: code, stream: stream.pointee)
      }
      compressed.append(contentsOf: chunk[..<produced])
      // Done once all input is taken and the flush had room to finish.
    } while stream.pointee.avail_in > 0 || stream.pointee.avail_out == 0
    if compressed.count >= 4 && compressed.suffix(4).elementsEqual([0, 0, 0xFF, 0xFF]) {
      compressed.removeLast(4)
    }
    if resetsAfterMessage { deflateReset(stream) }
  }

  /// Compresses `message` into `compressed`.
  public func compress(_ message: some Collection<UInt8>) throws(ZlibFailure) {
    let bytes = Array(message)
    var failure: ZlibFailure?
    bytes.withUnsafeBytes { raw in
      do throws(ZlibFailure) { try compress(raw) } catch { failure = error }
    }
    if let failure { throw failure }
  }
}
