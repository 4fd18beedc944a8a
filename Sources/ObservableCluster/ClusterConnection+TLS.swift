import NATS
import ObservablePOSIX
import TLS

/// TLS on the link's socket. nats-server 2.9 sends INFO in clear with `tls_required`, then
/// waits for the client's handshake on the same socket; so the link reads INFO as plaintext,
/// then puts a client session between the socket and the NATS session. CONNECT, which the
/// NATS session wrote on INFO, waits until the handshake completes and then goes encrypted.
/// Loop only.
extension ClusterConnection {
  /// Takes `count` bytes the socket read into `buffer`: plaintext before TLS (then starts it if
  /// the server or the URL asks), ciphertext after, decrypted into the same buffer.
  func receive(_ count: Int, from buffer: UnsafeMutableRawBufferPointer) {
    guard let session = tls.session else {
      guard deliver(UnsafeRawBufferPointer(rebasing: buffer[..<count])) else { return }
      return startTLSIfAsked()
    }
    // `feed` copies, so the loop's buffer is free for the plaintext at once.
    session.feed(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
    while descriptor >= 0 {
      let outcome: TLSRead
      do {
        outcome = try session.read(into: buffer)
      } catch {
        // The alert OpenSSL wrote says why to the server; the socket closes right after.
        flushAlert(of: session)
        return connectionLost("\(error)")
      }
      switch outcome {
      case .handshakeCompleted:
        link.logger.debug(
          "cluster TLS established",
          metadata: [
            "protocol": "\(session.negotiatedProtocol ?? "?")",
            "cipher": "\(session.cipher ?? "?")",
          ])
      case .plaintext(let plain):
        guard deliver(UnsafeRawBufferPointer(rebasing: buffer[..<plain])) else { return }
      case .needsInput: return
      case .closedByPeer: return connectionLost("the NATS server closed the TLS session")
      }
    }
  }

  /// What ``flush()`` sends: the NATS session's bytes as they are on a plain connection; on a
  /// TLS one, the handshake's until it completes, then the NATS bytes encrypted in one batch.
  func moveOutbound(from session: inout NATSClientSession, into output: inout [UInt8]) {
    guard let tlsSession = tls.session else { return session.moveOutbound(into: &output) }
    guard tlsSession.isHandshakeComplete else {
      tlsSession.takeCiphertext(appendingTo: &output)
      return
    }
    tls.plaintext.removeAll(keepingCapacity: true)
    session.moveOutbound(into: &tls.plaintext)
    // A Result, because withUnsafeBytes rethrows untyped errors.
    let sent = tls.plaintext.withUnsafeBytes { bytes in
      Result { () throws(TLSFailure) in try tlsSession.send(bytes, appendingTo: &output) }
    }
    if case .failure = sent {
      // Only a read fails a session, and that read has already dropped the connection.
      tls.plaintext.removeAll(keepingCapacity: true)
    }
  }

  /// After the INFO of a new connection: starts the handshake when the server requires TLS
  /// or the URL said `tls://`, naming the URL's host as the name to verify.
  private func startTLSIfAsked() {
    let (state, info, server) = link.state.withLock {
      ($0.session.state, $0.session.serverInfo, $0.session.servers.current)
    }
    guard state == .awaitingPong, let info, let server else { return }
    guard info.tlsRequired || server.requiresTLS else { return }
    guard info.tlsRequired else {
      return connectionLost("the URL says tls:// but the NATS server does not offer TLS")
    }
    do {
      let session = try TLSSession(
        context: try tls.context(for: link.configuration.tls), serverName: server.host)
      try session.startHandshake()
      tls.session = session
    } catch {
      connectionLost("\(error)")
    }
  }

  private func flushAlert(of session: TLSSession) {
    var alert: [UInt8] = []
    session.takeCiphertext(appendingTo: &alert)
    _ = alert.withUnsafeBytes { try? SocketCalls.send(descriptor, $0) }
  }
}
