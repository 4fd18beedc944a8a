/// What a client's TLS context is built from.
public struct TLSClientConfiguration: Sendable, Equatable {
  /// How the client checks the server's certificate.
  public enum ServerVerification: Sendable, Equatable {
    /// The chain must lead to an authority in `caFile`, or to one of the system's when
    /// `caFile` is `nil`, and the certificate must name the host the session connects to.
    case verify(caFile: String?)
    /// No check at all: any certificate, from anyone, for any name, expired or not. Traffic is
    /// still encrypted, but to whoever answered, so an attacker on the path reads everything.
    /// For self-signed test setups only (`--insecure`).
    case insecure
  }

  /// How the server's certificate is checked.
  public var serverVerification: ServerVerification
  /// A client certificate chain in PEM, for servers that ask for one; `nil` sends none.
  public var certificateChainFile: String?
  /// The private key of the client certificate, in PEM, unencrypted.
  public var privateKeyFile: String?

  /// A configuration that checks the server as `serverVerification` says and, when both
  /// files are given, presents a client certificate.
  public init(
    serverVerification: ServerVerification = .verify(caFile: nil),
    certificateChainFile: String? = nil, privateKeyFile: String? = nil
  ) {
    self.serverVerification = serverVerification
    self.certificateChainFile = certificateChainFile
    self.privateKeyFile = privateKeyFile
  }
}
