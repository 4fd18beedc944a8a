import TLS

/// A connection's TLS layer: its session, and the buffers the transport keeps for it, between
/// the framing (or deflate) and the socket. Loop thread only, as its connection.
///
/// Every byte for the client passes through ``seal(appendingTo:_:)`` or
/// ``seal(_:appendingTo:)``, one `send` per batch, so the connection's outgoing bytes hold
/// only TLS records. Until the handshake completes, plaintext waits here instead: TLS can
/// encrypt nothing before, and the framing may still answer (an HTTP timeout).
final class ConnectionTLS {
  /// The session, from the listener's certificate at the time of the accept.
  let session: TLSSession
  /// Plaintext, framed or compressed, on its way into one `send`; kept for its capacity.
  private var scratch: [UInt8] = []
  /// Plaintext written before the handshake completed, sealed once it has.
  private var early: [UInt8] = []
  /// The client certificate's names, read once when the handshake completed; `nil` when the
  /// client sent none.
  private(set) var peerCertificate: TLSPeerCertificate?
  /// Whether the handshake's failure was counted, so that the close does not count it again.
  var failureCounted = false

  /// The plaintext one ``TLSSession/read(into:)`` returns at most: one record's.
  static let plaintextBytes = 16 * 1024

  /// Where the socket reads ciphertext into: the loop's read buffer after its first
  /// ``plaintextBytes``, at most `size` bytes of it. The session reads the records there
  /// (``TLSSession/lending(_:_:)``) and decrypts into the first part (``plaintextBuffer(in:)``),
  /// so what a TLS connection receives is not copied once more on its way in.
  static func ciphertextBuffer(in readBuffer: UnsafeMutableRawBufferPointer, size: Int)
    -> UnsafeMutableRawBufferPointer
  {
    let end = plaintextBytes + min(size, readBuffer.count - plaintextBytes)
    return UnsafeMutableRawBufferPointer(rebasing: readBuffer[plaintextBytes..<end])
  }

  /// Where the session decrypts into: the first ``plaintextBytes`` of the loop's read buffer,
  /// apart from the ciphertext it reads (``ciphertextBuffer(in:size:)``).
  static func plaintextBuffer(in readBuffer: UnsafeMutableRawBufferPointer)
    -> UnsafeMutableRawBufferPointer
  {
    UnsafeMutableRawBufferPointer(rebasing: readBuffer[..<plaintextBytes])
  }

  /// The layer of `session`, a server session no byte went through yet.
  init(session: TLSSession) {
    self.session = session
  }

  /// Whether records can be sent: the handshake completed and nothing failed.
  var isReady: Bool { session.isHandshakeComplete && session.failure == nil }

  /// The memory the layer's buffers hold, which a close gives back.
  var heldBytes: Int { scratch.capacity + early.capacity + session.heldBytes }

  /// Lets `body` append plaintext, then encrypts it all in one `send` and appends the records
  /// to `ciphertext`.
  func seal(appendingTo ciphertext: inout [UInt8], _ body: (inout [UInt8]) -> Void) {
    guard session.isHandshakeComplete else { return body(&early) }
    scratch.removeAll(keepingCapacity: true)
    body(&scratch)
    scratch.withUnsafeBytes { seal($0, appendingTo: &ciphertext) }
    // A burst's capacity is not kept for the rest of the connection's life.
    if scratch.capacity > 1 << 20 { scratch = [] }
  }

  /// Encrypts `plaintext` in one `send` and appends the records to `ciphertext`.
  func seal(_ plaintext: UnsafeRawBufferPointer, appendingTo ciphertext: inout [UInt8]) {
    guard session.isHandshakeComplete else { return early.append(contentsOf: plaintext) }
    // A failure is final for the session: the bytes are dropped, and the connection closes
    // at its next write (see `isReady`).
    try? session.send(plaintext, appendingTo: &ciphertext)
  }

  /// Appends what OpenSSL has for the peer on its own (handshake messages, alerts, session
  /// tickets) and, once the handshake completed, the plaintext that waited for it, sealed.
  func takeRecords(appendingTo ciphertext: inout [UInt8]) {
    guard session.isHandshakeComplete, !early.isEmpty else {
      session.takeCiphertext(appendingTo: &ciphertext)
      return
    }
    let waiting = early
    early = []
    waiting.withUnsafeBytes { seal($0, appendingTo: &ciphertext) }
  }

  /// The handshake completed: keeps the client certificate's names for authorization.
  func handshakeCompleted() {
    peerCertificate = session.peerCertificate
  }

  /// close_notify, to send after everything else when the connection ends in good order;
  /// empty when the session cannot say it (no handshake, or a failure).
  func closeNotify() -> [UInt8] {
    guard isReady else { return [] }
    session.close()
    var record: [UInt8] = []
    session.takeCiphertext(appendingTo: &record)
    return record
  }
}
