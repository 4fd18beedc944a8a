/// How an ``ObservableClient`` speaks TLS to a server's `tls://` listener.
///
/// By default the server's certificate must lead to one of the system's authorities and name
/// the host the client connects to. ``caFile`` trusts a private authority instead (a test CA,
/// a company's own); ``certificateFile`` and ``privateKeyFile`` present a client certificate to
/// a server that asks for one; ``insecure`` turns every check off.
public struct ClientTLSConfiguration: Sendable, Equatable {
  /// The authorities (PEM) the server's certificate must lead to; `nil`: the system's.
  public var caFile: String?
  /// A client certificate chain (PEM) for servers that ask for one; `nil` sends none.
  public var certificateFile: String?
  /// The client certificate's private key (PEM, unencrypted).
  public var privateKeyFile: String?
  /// The name the server's certificate must carry, and the SNI sent; `nil`: the address's
  /// host (a Unix socket's path names no host, so only the chain is checked there).
  public var serverName: String?
  /// Whether the server's certificate is checked at all. `false` accepts any certificate,
  /// from anyone, for any name, expired or not: traffic is still encrypted, but to whoever
  /// answered, so anyone on the path can read and change it. For self-signed test setups only.
  public var verifiesServer: Bool

  /// A configuration; the defaults check the server against the system's authorities.
  public init(
    caFile: String? = nil, certificateFile: String? = nil, privateKeyFile: String? = nil,
    serverName: String? = nil, verifiesServer: Bool = true
  ) {
    self.caFile = caFile
    self.certificateFile = certificateFile
    self.privateKeyFile = privateKeyFile
    self.serverName = serverName
    self.verifiesServer = verifiesServer
  }

  /// Encryption without any check of the server's certificate (`--insecure`).
  public static var insecure: ClientTLSConfiguration { .init(verifiesServer: false) }
}
