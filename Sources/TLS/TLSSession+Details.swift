import COpenSSL

extension TLSSession {
  /// The protocol the handshake agreed on, such as `TLSv1.3`; `nil` before it completes.
  public var negotiatedProtocol: String? {
    guard isHandshakeComplete else { return nil }
    return String(cString: SSL_get_version(ssl))
  }

  /// The cipher suite the handshake agreed on, in OpenSSL's naming, such as
  /// `TLS_AES_256_GCM_SHA384` or `ECDHE-ECDSA-AES128-GCM-SHA256`.
  public var cipher: String? {
    guard isHandshakeComplete, let cipher = SSL_get_current_cipher(ssl) else { return nil }
    return String(cString: SSL_CIPHER_get_name(cipher))
  }

  /// The certificate the peer presented, if it presented one: always the server's for a
  /// client, a client's only when the server asked. When the context verifies peers, the
  /// certificate passed verification, or the handshake would have failed.
  public var peerCertificate: TLSPeerCertificate? {
    guard let certificate = SSL_get1_peer_certificate(ssl) else { return nil }
    defer { X509_free(certificate) }
    return TLSPeerCertificate(certificate)
  }
}
