/// What a server's TLS context is built from: files on disk, read when the context is built
/// (at start-up and on each reload), never later.
public struct TLSServerConfiguration: Sendable, Equatable {
  /// Whether the server asks connecting clients for a certificate, and whom it trusts to have
  /// signed one.
  public enum ClientCertificates: Sendable, Equatable {
    /// Clients are not asked for a certificate.
    case none
    /// Clients are asked; one that sends none is let in, one that sends a certificate the
    /// authorities in `caFile` did not sign is refused.
    case request(caFile: String)
    /// Clients must send a certificate signed by an authority in `caFile`.
    case require(caFile: String)
  }

  /// The server's certificate chain in PEM: its own certificate first, then the
  /// intermediates, as `--tls-cert` names it.
  public var certificateChainFile: String
  /// The private key of the first certificate in the chain, in PEM, unencrypted.
  public var privateKeyFile: String
  /// The policy for client certificates.
  public var clientCertificates: ClientCertificates

  /// A configuration that serves the chain in `certificateChainFile` with the key in
  /// `privateKeyFile`.
  public init(
    certificateChainFile: String, privateKeyFile: String,
    clientCertificates: ClientCertificates = .none
  ) {
    self.certificateChainFile = certificateChainFile
    self.privateKeyFile = privateKeyFile
    self.clientCertificates = clientCertificates
  }
}
