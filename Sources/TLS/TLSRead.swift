/// What one ``TLSSession/read(into:)`` produced.
public enum TLSRead: Equatable, Sendable {
  /// This many bytes of plaintext, at the start of the buffer.
  case plaintext(Int)
  /// The handshake finished in this call: the session can ``TLSSession/send(_:appendingTo:)``
  /// from now on, and the server counts a handshake. Reported once.
  case handshakeCompleted
  /// Nothing more until more ciphertext arrives (or the handshake waits for the peer).
  case needsInput
  /// The peer sent close_notify: it sends nothing more. Reported on every later read.
  case closedByPeer
}
