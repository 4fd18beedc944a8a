import COpenSSL
import Glibc

/// One TLS connection as a byte transform: ciphertext from the socket in, plaintext out;
/// plaintext in, ciphertext for the socket out. No socket, no thread, no blocking.
///
/// OpenSSL works through a BIO of the session's own (``CiphertextBIO``) over its
/// ``CiphertextChannel``. ``feed(_:)`` copies what the socket read into the channel, or
/// ``lending(_:_:)`` lets OpenSSL read it in the caller's buffer; ``read(into:)`` runs the
/// handshake, then decrypts into the caller's buffer;
/// ``send(_:appendingTo:)`` encrypts, and OpenSSL's writes append the records straight to the
/// caller's output bytes. Whatever OpenSSL wants to send on its own (handshake messages,
/// alerts, session tickets, close_notify) waits in the channel until
/// ``takeCiphertext(appendingTo:)``, so the caller checks ``hasCiphertext`` after every call
/// and flushes.
///
/// Used from one thread at a time (the connection's event loop): not `Sendable`.
public final class TLSSession {
  /// The context the session was made from, kept alive while the session lives.
  public let context: TLSContext
  /// Whether the handshake has finished.
  public private(set) var isHandshakeComplete = false
  /// The failure that ended the session; every later call throws it again.
  public private(set) var failure: TLSFailure?
  /// Whether the peer sent close_notify.
  public private(set) var peerSentCloseNotify = false

  /// The `SSL`, owned; it owns the BIO over `channel`.
  let ssl: OpaquePointer
  /// The ciphertext in both directions; outlives the BIO, which `SSL_free` frees first.
  private let channel: CiphertextChannel

  /// A session of `context`'s role. For a client, `serverName` is the host it connects to:
  /// sent as SNI (unless it is an IP address) and, when the context verifies, the name the
  /// server's certificate must carry; `nil` checks the chain only.
  public init(context: TLSContext, serverName: String? = nil) throws(TLSFailure) {
    OpenSSLErrorQueue.clear()
    guard let ssl = SSL_new(context.pointer) else { throw Self.resourceFailure("SSL_new") }
    let channel = CiphertextChannel()
    guard let bio = CiphertextBIO.make(over: channel) else {
      SSL_free(ssl)
      throw Self.resourceFailure("BIO_new")
    }
    self.context = context
    self.ssl = ssl
    self.channel = channel
    // One BIO both ways: SSL_set_bio takes its one reference.
    SSL_set_bio(ssl, bio, bio)
    guard context.role == .client else {
      SSL_set_accept_state(ssl)
      return
    }
    SSL_set_connect_state(ssl)
    if let serverName { try expect(serverName: serverName) }
  }

  deinit { SSL_free(ssl) }

  private func expect(serverName: String) throws(TLSFailure) {
    var address = in6_addr()
    let isAddress =
      inet_pton(AF_INET, serverName, &address) == 1
      || inet_pton(AF_INET6, serverName, &address) == 1
    // RFC 6066: SNI carries host names only, never an address literal.
    if !isAddress, observable_ssl_set_tlsext_host_name(ssl, serverName) != 1 {
      throw TLSFailure(.protocolError(reason: 0), "invalid server name \(serverName)")
    }
    guard context.verifiesPeer else { return }
    let set =
      isAddress
      ? X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(ssl), serverName)
      : SSL_set1_host(ssl, serverName)
    guard set == 1 else {
      throw TLSFailure(.protocolError(reason: 0), "invalid server name \(serverName)")
    }
  }

  /// Whether OpenSSL has bytes for the peer waiting: take and send them.
  public var hasCiphertext: Bool { !channel.outgoing.isEmpty }

  /// The memory the session's ciphertext buffers hold (OpenSSL's own aside).
  public var heldBytes: Int { channel.heldBytes }

  /// Hands the session ciphertext the socket read. It is copied (into the channel), so the
  /// caller's buffer is free again when this returns: the loop's shared read buffer can
  /// take the plaintext next.
  public func feed(_ ciphertext: UnsafeRawBufferPointer) {
    guard !ciphertext.isEmpty else { return }
    channel.feed(ciphertext)
  }

  /// Lets the session read `ciphertext` the socket read where it is, without a copy, while
  /// `body` runs ``read(into:)``, which must decrypt into other memory; what `body` leaves
  /// unread (when it stops before ``TLSRead/needsInput``) is copied in when it returns, so the
  /// caller's buffer is free again then. A connection reading into one part of its loop's buffer and
  /// decrypting into another saves one copy of everything it receives.
  public func lending<Result, Failure: Error>(
    _ ciphertext: UnsafeRawBufferPointer, _ body: () throws(Failure) -> Result
  ) throws(Failure) -> Result {
    try channel.lending(ciphertext, body)
  }

  /// The socket reached its end: the next ``read(into:)`` reports ``TLSFailure/Kind/truncated``
  /// unless the peer said close_notify first.
  public func feedEndOfStream() {
    channel.incomingEnded = true
  }

  /// A client starts here, before any input: the ClientHello waits in ``hasCiphertext``.
  public func startHandshake() throws(TLSFailure) {
    _ = try read(into: UnsafeMutableRawBufferPointer(start: nil, count: 0))
  }

  /// Moves the handshake on, then decrypts what the fed ciphertext holds into `buffer`, one
  /// call per chunk: call again while it returns ``TLSRead/plaintext(_:)`` or
  /// ``TLSRead/handshakeCompleted``.
  public func read(into buffer: UnsafeMutableRawBufferPointer) throws(TLSFailure) -> TLSRead {
    if let failure { throw failure }
    if peerSentCloseNotify { return .closedByPeer }
    OpenSSLErrorQueue.clear()
    if !isHandshakeComplete {
      let result = SSL_do_handshake(ssl)
      guard result == 1 else { return try settle(result) ? .closedByPeer : .needsInput }
      isHandshakeComplete = true
      return .handshakeCompleted
    }
    guard let base = buffer.baseAddress, !buffer.isEmpty else { return .needsInput }
    var count = 0
    guard SSL_read_ex(ssl, base, buffer.count, &count) == 1 else {
      return try settle(0) ? .closedByPeer : .needsInput
    }
    return .plaintext(count)
  }

  /// Appends anything OpenSSL had waiting to `ciphertext`, then encrypts `plaintext`, all of
  /// it, with the records going straight to the end of `ciphertext`. One call per batch: each
  /// call ends at least one record, so a whole batch of lines in one call fills records of up
  /// to 16 KiB.
  public func send(_ plaintext: UnsafeRawBufferPointer, appendingTo ciphertext: inout [UInt8])
    throws(TLSFailure)
  {
    if let failure { throw failure }
    precondition(isHandshakeComplete, "TLSSession.send before the handshake completed")
    takeCiphertext(appendingTo: &ciphertext)
    guard let base = plaintext.baseAddress, !plaintext.isEmpty else { return }
    OpenSSLErrorQueue.clear()
    let wrote = withUnsafeMutablePointer(to: &ciphertext) { destination in
      channel.destination = destination
      defer { channel.destination = nil }
      var written = 0
      // The BIO takes every write whole, so one call writes everything (no partial writes).
      return SSL_write_ex(ssl, base, plaintext.count, &written) == 1
    }
    guard wrote else {
      _ = try settle(0)
      throw end(TLSFailure(.truncated, "the peer closed the session"))
    }
  }

  /// Appends what OpenSSL wrote for the peer on its own to `ciphertext` and empties the
  /// channel's copy; returns how many bytes it appended.
  @discardableResult
  public func takeCiphertext(appendingTo ciphertext: inout [UInt8]) -> Int {
    channel.take(appendingTo: &ciphertext)
  }

  /// Says close_notify: the record waits in ``hasCiphertext``; send it, then close the socket.
  /// There is no need to wait for the peer's own close_notify.
  public func close() {
    guard failure == nil, isHandshakeComplete else { return }
    OpenSSLErrorQueue.clear()
    _ = SSL_shutdown(ssl)
    OpenSSLErrorQueue.clear()
  }

  /// Reads an unfinished call's outcome: `false` when it waits for more input, `true` when the
  /// peer said close_notify; throws, and ends the session, on anything else.
  private func settle(_ result: Int32) throws(TLSFailure) -> Bool {
    switch SSL_get_error(ssl, result) {
    case SSL_ERROR_WANT_READ, SSL_ERROR_WANT_WRITE:
      // The BIO never makes a write wait, so WANT_WRITE only means "take the ciphertext".
      return false
    case SSL_ERROR_ZERO_RETURN:
      peerSentCloseNotify = true
      return true
    case let code:
      throw end(failure(after: code))
    }
  }

  private func end(_ failure: TLSFailure) -> TLSFailure {
    self.failure = failure
    return failure
  }

  private static func resourceFailure(_ call: String) -> TLSFailure {
    let reason = OpenSSLErrorQueue.take()
    return TLSFailure(
      .protocolError(reason: reason?.reason ?? 0), "\(call) failed: \(reason?.text ?? "no memory")")
  }
}
