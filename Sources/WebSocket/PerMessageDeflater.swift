import Deflate

/// Compresses outgoing messages for permessage-deflate (RFC 7692 section 7.2.1).
///
/// The zlib calls are the shared ``DeflateCompressor``'s; what is permessage-deflate's is here:
/// a sync flush ends every message, its `00 00 ff ff` tail is removed, and without context
/// takeover the window is reset after each message.
///
/// Not thread-safe: one per connection, used on the connection's loop only. The compressed
/// bytes of the latest message stay in `compressed` until the next call, so the frame
/// encoder can write the length before copying them.
public final class PerMessageDeflater {
  private let compressor: DeflateCompressor
  private let resetsAfterMessage: Bool
  /// How far back a match may reach: zlib's own limit for the window, which a peer inflating
  /// with that window (or the 256 bytes of `server_max_window_bits=8`) decodes.
  private let maximumDistance: Int
  /// The latest message's compressed payload, the sync flush's `00 00 ff ff` removed.
  public private(set) var compressed: [UInt8] = []

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
    do {
      compressor = try DeflateCompressor(
        level: Int(level), windowBits: Int(min(15, max(9, windowBits))),
        memoryLevel: Int(memoryLevel))
    } catch {
      throw ZlibFailure(error)
    }
    resetsAfterMessage = !contextTakeover
    maximumDistance = (1 << Int(min(15, max(9, windowBits)))) - 262
  }

  /// Compresses one whole message into `compressed`.
  ///
  /// Throws nothing today: the shared compressor stops the process on a zlib failure, which
  /// can only come from a corrupt stream state. The signature stays for callers.
  public func compress(_ message: UnsafeRawBufferPointer) throws(ZlibFailure) {
    // A large message's buffer is not kept for the rest of the connection.
    if compressed.capacity > 64 * 1024 {
      compressed = []
    } else {
      compressed.removeAll(keepingCapacity: true)
    }
    // Without context, a short message is one block of fixed codes, which zlib would also
    // choose but only after building dynamic trees for it (``FixedCodeDeflater``).
    if resetsAfterMessage, !message.isEmpty,
      message.count <= FixedCodeDeflater.largestMessage
    {
      FixedCodeDeflater.compress(
        message, maximumDistance: maximumDistance, appendingTo: &compressed)
      return
    }
    // An empty message still ends in a flush: its payload is the empty block, one `00` byte.
    if message.isEmpty {
      compressor.flush(appendingTo: &compressed)
    } else {
      compressor.compress(message, appendingTo: &compressed)
    }
    if compressed.count >= 4 && compressed.suffix(4).elementsEqual([0, 0, 0xFF, 0xFF]) {
      compressed.removeLast(4)
    }
    if resetsAfterMessage { compressor.reset() }
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
