/// Turns the bytes a client sends, in any split, into whole messages and control frames,
/// enforcing RFC 6455 and RFC 7692 as a server must.
///
/// Memory is bounded by `maximumMessageBytes`: a frame that would take a message past it is
/// refused from its header, before anything is buffered, and a compressed message is
/// inflated as its frames arrive with the output capped. Text is checked as UTF-8 as it
/// arrives, so a bad byte fails the connection at once. After a failure every call throws
/// the same error; after the peer's close, further bytes are ignored.
///
/// Not thread-safe: one per connection, used on the connection's loop only.
public final class WebSocketFrameDecoder {
  private var state: WebSocketFrameDecoding

  /// The largest message accepted, after decompression. A server may raise it once a client
  /// authenticates; set it between calls to `decode`, never from its event handler.
  public var maximumMessageBytes: Int {
    get { state.maximumMessageBytes }
    set { state.maximumMessageBytes = max(0, newValue) }
  }
  /// Whether binary messages are delivered; when false a binary frame fails with 1003 at
  /// its header, since the line protocol is text only.
  public var acceptsBinary: Bool { state.acceptsBinary }

  /// A decoder; `deflate` is the negotiated permessage-deflate, nil when none was.
  public init(
    maximumMessageBytes: Int, acceptsBinary: Bool = false,
    deflate: PerMessageDeflateParameters? = nil
  ) throws(ZlibFailure) {
    state = try WebSocketFrameDecoding(
      maximumMessageBytes: maximumMessageBytes, acceptsBinary: acceptsBinary, deflate: deflate)
  }

  /// Decodes the next bytes received, calling `onEvent` for each message or control frame
  /// completed; throws when the peer broke the protocol (then close with the error's code).
  /// `onEvent` must not call back into this decoder.
  public func decode(
    _ bytes: UnsafeRawBufferPointer, _ onEvent: (WebSocketEvent) -> Void
  ) throws(WebSocketProtocolError) {
    try state.decode(bytes, onEvent)
  }

  /// Decodes the next bytes received; see `decode(_:_:)` taking a buffer.
  public func decode(
    _ bytes: [UInt8], _ onEvent: (WebSocketEvent) -> Void
  ) throws(WebSocketProtocolError) {
    var failure: WebSocketProtocolError?
    bytes.withUnsafeBytes { buffer in
      do throws(WebSocketProtocolError) { try decode(buffer, onEvent) } catch { failure = error }
    }
    if let failure { throw failure }
  }
}
