/// What a ``Framing`` found in a connection's input, or its timer asks for: the connection acts
/// on each, in order (`Connection+Framing.swift`), so that the codec never calls up into the
/// connection.
package enum FramingEvent {
  /// A request line for the session, without its line break; valid only during the call.
  case line(UnsafeRawBufferPointer)
  /// A request line longer than the framing's `maxLineBytes` began; the rest of it is skipped
  /// and the session answers with an error.
  case lineTooLong
  /// A control frame (a WebSocket pong or ping) to write after what is being written and
  /// before queued lines, counted toward the queued-bytes cap.
  case controlFrame([UInt8])
  /// An HTTP response to write; the connection closes, for `reason`, once it is written.
  case respond([UInt8], reason: String)
  /// The `101` answer to write; `next` then frames the rest of the connection (what followed
  /// the head included) and the session starts.
  case upgrade([UInt8], to: any Framing)
  /// The peer broke the framing's rules (`detail` for the log): the connection says
  /// `farewell` and closes for `reason` once it is written.
  case violation(reason: String, detail: String, farewell: Farewell)
  /// The peer ended the connection in the framing (a WebSocket close frame): the connection
  /// answers with `farewell` and closes for `reason` once it is written.
  case finish(reason: String, farewell: Farewell)
  /// The peer stopped answering: the connection says `farewell` at once, best effort, and
  /// closes for `reason` without waiting.
  case deadPeer(reason: String, farewell: Farewell)
}
