/// What the frame decoder hands over: a whole message or a control frame.
public enum WebSocketEvent: Sendable, Hashable {
  /// A complete text message, already checked to be UTF-8 and decompressed.
  case text([UInt8])
  /// A complete binary message (only when the decoder takes them).
  case binary([UInt8])
  /// A ping: answer with a pong carrying the same payload.
  case ping([UInt8])
  /// A pong, whether or not it answers a ping.
  case pong([UInt8])
  /// The peer's close; `code` is nil when the frame had no payload (1005 locally).
  /// Answer with a close frame (echoing the code is usual), then close the socket.
  case close(code: WebSocketCloseCode?, reason: String)
}
