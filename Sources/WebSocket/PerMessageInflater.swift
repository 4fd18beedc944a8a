import Deflate

/// Decompresses incoming messages for permessage-deflate (RFC 7692 section 7.2.2), with
/// the output capped so a small compressed message cannot inflate without bound.
///
/// The zlib calls are the shared ``InflateDecompressor``'s; what is permessage-deflate's is
/// here: the `00 00 ff ff` the sender removed is put back at the end of each message, a final
/// block inside a message starts a new stream, and without context takeover the window is
/// reset after each message.
///
/// Not thread-safe: one per connection, used on the connection's loop only. Feed a
/// message's payload in any pieces with `inflate`, then call `finishMessage`.
public final class PerMessageInflater {
  /// Why decompression stopped.
  public enum Failure: Error, Sendable, Hashable {
    /// The output would pass the limit given.
    case tooBig
    /// The input is not valid deflate data.
    case corrupt(ZlibFailure)
  }

  private let decompressor: InflateDecompressor
  private let resetsAfterMessage: Bool
  /// The pieces zlib writes before the limit is checked, so nothing past it is ever appended.
  private static let pieceSize = 16 * 1024
  private static let syncFlushTail: [UInt8] = [0, 0, 0xFF, 0xFF]

  /// Decompresses with the client's window, resetting after each message when the
  /// negotiation said `client_no_context_takeover`.
  public convenience init(_ parameters: PerMessageDeflateParameters) throws(ZlibFailure) {
    try self.init(
      windowBits: Int32(parameters.clientMaxWindowBits),
      contextTakeover: !parameters.clientNoContextTakeover)
  }

  /// Decompresses raw deflate data with a window of `windowBits` (8...15).
  public init(windowBits: Int32 = 15, contextTakeover: Bool = true) throws(ZlibFailure) {
    do {
      // A sender may end the deflate stream (BFINAL) inside a message; what follows it
      // starts a new stream, as if without context takeover.
      decompressor = try InflateDecompressor(
        windowBits: Int(min(15, max(8, windowBits))), chunkSize: Self.pieceSize,
        restartsAtStreamEnd: true)
    } catch {
      throw ZlibFailure(error)
    }
    resetsAfterMessage = !contextTakeover
  }

  /// Inflates the next piece of a message's payload, appending to `output`; throws
  /// `.tooBig` before `output` would grow past `limit` bytes.
  public func inflate(
    _ input: UnsafeRawBufferPointer, appendingTo output: inout [UInt8], limit: Int
  ) throws(Failure) {
    do {
      try decompressor.decompress(input) { piece in
        guard piece.count <= limit - output.count else { throw Failure.tooBig }
        output.append(contentsOf: piece)
      }
    } catch {
      if case .consumerFailed(let inner) = error, let failure = inner as? Failure {
        throw failure
      }
      throw .corrupt(ZlibFailure(error))
    }
  }

  /// Ends a message: inflates the `00 00 ff ff` the sender removed, then resets the window
  /// unless context takeover was agreed.
  public func finishMessage(appendingTo output: inout [UInt8], limit: Int) throws(Failure) {
    defer { if resetsAfterMessage { decompressor.reset() } }
    var failure: Failure?
    Self.syncFlushTail.withUnsafeBytes { tail in
      do throws(Failure) {
        try inflate(tail, appendingTo: &output, limit: limit)
      } catch {
        failure = error
      }
    }
    if let failure { throw failure }
  }
}
