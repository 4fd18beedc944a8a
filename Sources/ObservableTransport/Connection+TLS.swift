import ObservableCounters
import ObservableLogging
import TLS

/// A TLS listener's connection: the handshake and its time limit, ciphertext in and out, the
/// counters, and close_notify. Loop thread only.
///
/// The TLS session sits between the socket and everything else: what the socket reads is fed
/// to it and decrypted into the loop's read buffer, then goes to ``receive(_:)`` as plaintext
/// would; what the connection writes is sealed in ``OutgoingBytes``. Framing, deflate and the
/// session see plaintext only.
extension Connection {
  /// The client certificate's names, when the client sent one the server's authorities
  /// signed; for authorization.
  package var peerCertificate: TLSPeerCertificate? { output.tls?.peerCertificate }

  /// Counts the connection as TLS and gives its handshake `tlsHandshakeTimeout` to finish.
  func startTLSHandshake() {
    loop.assertInLoop()
    context.counters.update { $0.tlsConnections += 1 }
    schedule(in: settings.tlsHandshakeTimeout) { [self] in
      guard let tls = output.tls, !tls.session.isHandshakeComplete else { return }
      handshakeFailed(.timeout, "not finished within \(settings.tlsHandshakeTimeout)", tls)
      close("TLS handshake timed out")
    }
  }

  /// Lends the session `ciphertext`, what the socket read into the loop's buffer
  /// (``ConnectionTLS/ciphertextBuffer(in:size:)``), then decrypts what it completes into the
  /// start of that buffer (``ConnectionTLS/plaintextBuffer(in:)``) and hands it on.
  func receiveEncrypted(_ ciphertext: UnsafeRawBufferPointer, through tls: ConnectionTLS) {
    tls.session.lending(ciphertext) { decrypt(through: tls) }
  }

  /// The socket reached its end: after close_notify, the client observes nothing more but
  /// still gets what is queued, as a plain client closing its side does; without it, the
  /// session cannot go on (mid-handshake, a vanished peer; after it, a truncated stream).
  func receiveEndOfStream(through tls: ConnectionTLS) {
    tls.session.feedEndOfStream()
    decrypt(through: tls)
    if lifecycle.state == .open { close("closed by peer") }
  }

  private func decrypt(through tls: ConnectionTLS) {
    let plaintext = ConnectionTLS.plaintextBuffer(in: loop.readBuffer)
    while !lifecycle.isClosed {
      let outcome: TLSRead
      do {
        outcome = try tls.session.read(into: plaintext)
      } catch {
        return closeAfter(error, through: tls)
      }
      switch outcome {
      case .plaintext(let count):
        receive(UnsafeRawBufferPointer(rebasing: plaintext[0..<count]))
      case .handshakeCompleted:
        handshakeCompleted(tls)
      case .needsInput:
        if tls.session.hasCiphertext {
          output.appendTLSRecords()
          flush()
        }
        return
      case .closedByPeer:
        finishAfterPeerClosed()
        return
      }
    }
  }

  private func handshakeCompleted(_ tls: ConnectionTLS) {
    tls.handshakeCompleted()
    context.counters.update { $0.tlsHandshakesTotal += 1 }
    context.logger.debug(
      "TLS handshake completed",
      metadata: [
        "peer": "\(peer)", "protocol": "\(tls.session.negotiatedProtocol ?? "")",
        "cipher": "\(tls.session.cipher ?? "")",
        "client": "\(tls.peerCertificate?.subject ?? "none")",
      ])
    // The session tickets, and the greeting that waited in the outbox.
    output.appendTLSRecords()
    flush()
  }

  /// Sends the alert OpenSSL wrote for the peer, if the socket takes it at once, and closes.
  private func closeAfter(_ failure: TLSFailure, through tls: ConnectionTLS) {
    if !tls.session.isHandshakeComplete {
      handshakeFailed(Self.failureKind(failure.kind), failure.message, tls)
    }
    // After the handshake, the alert could only follow whole records.
    if output.isAllSent {
      var alert: [UInt8] = []
      tls.session.takeCiphertext(appendingTo: &alert)
      if !alert.isEmpty { socket.sendNow(alert) }
    }
    if tls.session.isHandshakeComplete, failure.kind == .truncated {
      return close("closed by peer without close_notify")
    }
    close(failure.description)
  }

  /// Counts the connection out; one that closes before its handshake completed, for any
  /// reason not counted yet (a reset, a vanished peer, a shutdown), counts as a truncated
  /// handshake, so every connection counts either a handshake or a failure.
  func tlsConnectionClosed(_ tls: ConnectionTLS) {
    if !tls.session.isHandshakeComplete, !tls.failureCounted {
      handshakeFailed(.truncated, "closed before the handshake completed", tls)
    }
    context.counters.update { $0.tlsConnections -= 1 }
  }

  private func handshakeFailed(
    _ kind: TLSHandshakeFailureCounts.Kind, _ why: String, _ tls: ConnectionTLS
  ) {
    tls.failureCounted = true
    context.counters.update { $0.tlsHandshakeFailures[kind] += 1 }
    context.warnings.warn(
      .tlsHandshakeFailed, "TLS handshake failed",
      metadata: ["peer": "\(peer)", "kind": "\(kind.rawValue)", "reason": "\(why)"])
  }

  /// How `kind` is counted in `stats` and `/metrics`.
  static func failureKind(_ kind: TLSFailure.Kind) -> TLSHandshakeFailureCounts.Kind {
    switch kind {
    case .notTLS: .notTLS
    // 70 is protocol_version: the client refused every version the server offers.
    case .protocolVersion, .alertReceived(70): .protocolVersion
    case .certificateRejected, .peerCertificateMissing: .clientCertificate
    case .alertReceived: .peerAlert
    case .truncated: .truncated
    case .protocolError: .protocolError
    }
  }

  /// What ``prepareWrite()`` does while the handshake runs, or after the session failed:
  /// sends the handshake's records only, since the outbox can be sealed only after it (its
  /// greeting waits there until then). Returns whether there is something to send.
  func prepareTLSHandshakeWrite(_ tls: ConnectionTLS) -> Bool {
    if tls.session.failure != nil, output.isAllSent {
      close("TLS failed: \(tls.session.failure?.message ?? "")")
      return false
    }
    guard output.isAllSent else { return true }
    if lifecycle.state != .open {
      // Ending before the handshake completed (a shutdown): there is nothing to say.
      close(lifecycle.finishReason ?? "server shutting down")
      return false
    }
    watchWritable(false)
    return false
  }

  /// Sends close_notify at once, when everything else is sent and the session can say it: a
  /// connection ending in good order tells its client the stream was not cut short.
  func sayCloseNotify() {
    guard let tls = output.tls, output.isAllSent else { return }
    let record = tls.closeNotify()
    if !record.isEmpty { socket.sendNow(record) }
  }
}
