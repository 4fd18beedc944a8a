import COpenSSL
import Glibc

/// One TLS connection as a byte transform: ciphertext from the socket in, plaintext out;
/// plaintext in, ciphertext for the socket out. No socket, no thread, no blocking.
///
/// OpenSSL works between two memory BIOs the session owns. ``feed(_:)`` copies what the
/// socket read into the input BIO; ``read(into:)`` runs the handshake, then decrypts into the
/// caller's buffer; ``send(_:appendingTo:)`` encrypts and appends the records to the caller's
/// output bytes. Whatever OpenSSL wants to send on its own (handshake messages, alerts,
/// session tickets, close_notify) waits in the output BIO until
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

  /// The `SSL`, owned; it owns both BIOs.
  let ssl: OpaquePointer
  private let input: OpaquePointer
  private let output: OpaquePointer

  /// A session of `context`'s role. For a client, `serverName` is the host it connects to:
  /// sent as SNI (unless it is an IP address) and, when the context verifies, the name the
  /// server's certificate must carry; `nil` checks the chain only.
  public init(context: TLSContext, serverName: String? = nil) throws(TLSFailure) {
    OpenSSLErrorQueue.clear()
    guard let ssl = SSL_new(context.pointer) else { throw Self.resourceFailure("SSL_new") }
    guard let input = BIO_new(BIO_s_mem()), let output = BIO_new(BIO_s_mem()) else {
      SSL_free(ssl)
      throw Self.resourceFailure("BIO_new")
    }
    self.context = context
    self.ssl = ssl
    self.input = input
    self.output = output
    // "Retry later" on an empty input BIO until the socket ends (see feedEndOfStream).
    observable_bio_set_mem_eof_return(input, -1)
    SSL_set_bio(ssl, input, output)
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
  public var hasCiphertext: Bool { BIO_ctrl_pending(output) > 0 }

  /// Hands the session ciphertext the socket read. It is copied (into the input BIO), so the
  /// caller's buffer is free again when this returns: the loop's shared read buffer can
  /// take the plaintext next.
  public func feed(_ ciphertext: UnsafeRawBufferPointer) {
    guard let base = ciphertext.baseAddress, !ciphertext.isEmpty else { return }
    _ = BIO_write(input, base, Int32(clamping: ciphertext.count))
  }

  /// The socket reached its end: the next ``read(into:)`` reports ``TLSFailure/Kind/truncated``
  /// unless the peer said close_notify first.
  public func feedEndOfStream() {
    observable_bio_set_mem_eof_return(input, 0)
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

  /// Encrypts `plaintext`, all of it, and appends the records (with anything else OpenSSL had
  /// waiting) to `ciphertext`. One call per batch: each call ends at least one record, so a
  /// whole batch of lines in one call fills records of up to 16 KiB.
  public func send(_ plaintext: UnsafeRawBufferPointer, appendingTo ciphertext: inout [UInt8])
    throws(TLSFailure)
  {
    if let failure { throw failure }
    precondition(isHandshakeComplete, "TLSSession.send before the handshake completed")
    OpenSSLErrorQueue.clear()
    if let base = plaintext.baseAddress, !plaintext.isEmpty {
      var written = 0
      // Memory BIOs grow as needed, so one call writes everything (no partial writes).
      guard SSL_write_ex(ssl, base, plaintext.count, &written) == 1 else {
        _ = try settle(0)
        throw end(TLSFailure(.truncated, "the peer closed the session"))
      }
    }
    takeCiphertext(appendingTo: &ciphertext)
  }

  /// Appends what OpenSSL has for the peer to `ciphertext` and empties the output BIO;
  /// returns how many bytes it appended.
  @discardableResult
  public func takeCiphertext(appendingTo ciphertext: inout [UInt8]) -> Int {
    let pending = Int(BIO_ctrl_pending(output))
    guard pending > 0 else { return 0 }
    let start = ciphertext.count
    ciphertext.append(contentsOf: repeatElement(0, count: pending))
    let read = ciphertext.withUnsafeMutableBytes { bytes in
      BIO_read(output, bytes.baseAddress! + start, Int32(clamping: pending))
    }
    ciphertext.removeLast(pending - max(0, Int(read)))
    return max(0, Int(read))
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
      // With memory BIOs, WANT_WRITE only means "flush the output BIO", never "wait".
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
