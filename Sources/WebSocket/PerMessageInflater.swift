import CZlib

/// Decompresses incoming messages for permessage-deflate (RFC 7692 section 7.2.2), with
/// the output capped so a small compressed message cannot inflate without bound.
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

  private let stream: UnsafeMutablePointer<z_stream>
  private let resetsAfterMessage: Bool
  /// Where zlib writes before the limit is checked, so nothing past it is ever appended.
  private var scratch = [UInt8](repeating: 0, count: 16 * 1024)
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
    stream = try ZlibFailure.makeStream {
      observable_inflate_init_raw($0, -min(15, max(8, windowBits)))
    }
    resetsAfterMessage = !contextTakeover
  }

  deinit {
    inflateEnd(stream)
    stream.deinitialize(count: 1)
    stream.deallocate()
  }

  /// Inflates the next piece of a message's payload, appending to `output`; throws
  /// `.tooBig` before `output` would grow past `limit` bytes.
  public func inflate(
    _ input: UnsafeRawBufferPointer, appendingTo output: inout [UInt8], limit: Int
  ) throws(Failure) {
    guard !input.isEmpty else { return }
    stream.pointee.next_in = input.baseAddress!.assumingMemoryBound(to: Bytef.self)
    stream.pointee.avail_in = uInt(input.count)
    defer {
      stream.pointee.next_in = nil
      stream.pointee.avail_in = 0
    }
    while true {
      var code: Int32 = Z_OK
      var produced = 0
      scratch.withUnsafeMutableBufferPointer { buffer in
        stream.pointee.next_out = buffer.baseAddress!
        stream.pointee.avail_out = uInt(buffer.count)
        code = CZlib.inflate(stream, Z_SYNC_FLUSH)
        produced = buffer.count - Int(stream.pointee.avail_out)
        stream.pointee.next_out = nil
      }
      guard code == Z_OK || code == Z_STREAM_END || code == Z_BUF_ERROR else {
        let failure = ZlibFailure(code: code, stream: stream.pointee)
        inflateReset(stream)
        throw .corrupt(failure)
      }
      guard produced <= limit - output.count else { throw .tooBig }
      output.append(contentsOf: scratch[..<produced])
      // A sender may end the deflate stream (BFINAL) inside a message; what follows it
      // starts a new stream, as if without context takeover.
      if code == Z_STREAM_END { inflateReset(stream) }
      let outputFull = stream.pointee.avail_out == 0
      if stream.pointee.avail_in == 0 && !outputFull { return }
      if code == Z_BUF_ERROR && !outputFull { return }
    }
  }

  /// Ends a message: inflates the `00 00 ff ff` the sender removed, then resets the window
  /// unless context takeover was agreed.
  public func finishMessage(appendingTo output: inout [UInt8], limit: Int) throws(Failure) {
    defer { if resetsAfterMessage { inflateReset(stream) } }
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
