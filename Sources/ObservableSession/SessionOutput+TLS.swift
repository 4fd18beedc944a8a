import TLS

/// The certificate a TLS client presented, for authorization by certificate (issue 23).
extension SessionOutput {
  /// No certificate: the transport has no TLS, or the client sent none.
  package var peerCertificate: TLSPeerCertificate? { nil }
}

extension Session {
  /// The names in the certificate the client presented and the server's authorities signed
  /// (`--tls-client-ca`); `nil` without TLS, or when the client sent none. Known from the
  /// first request on: requests arrive only after the handshake.
  package var clientCertificate: TLSPeerCertificate? { output.peerCertificate }
}
