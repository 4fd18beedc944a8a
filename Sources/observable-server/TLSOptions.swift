import ArgumentParser
import ObservableServer
import TLS

/// The flags of TLS listeners: the certificate and key, client certificates, the handshake
/// time limit.
struct TLSOptions: ParsableArguments {
  @Option(
    name: .customLong("tls-cert"),
    help: ArgumentHelp(
      "The certificate chain TLS listeners serve (PEM: the server's certificate first, then intermediates). Read again on SIGHUP.",
      valueName: "path"))
  var certificate: String?

  @Option(
    name: .customLong("tls-key"),
    help: ArgumentHelp(
      "The private key of --tls-cert (PEM, unencrypted). Read again on SIGHUP.",
      valueName: "path"))
  var key: String?

  @Option(
    name: .customLong("tls-client-ca"),
    help: ArgumentHelp(
      "Ask TLS clients for a certificate signed by an authority in this PEM file.",
      valueName: "path"))
  var clientAuthorities: String?

  @Option(
    name: .customLong("tls-client-cert"),
    help: ArgumentHelp(
      "none: ask for no client certificate; request: check one if sent (default with --tls-client-ca); require: refuse clients without one.",
      valueName: "none|request|require"))
  var clientCertificates: String?

  @Option(
    name: .customLong("tls-handshake-timeout"),
    help: "Seconds a TLS client has to finish its handshake; it holds a connection slot meanwhile."
  )
  var handshakeTimeout: Double = 10

  func validate() throws {
    _ = try serverConfiguration()
    guard handshakeTimeout > 0 else {
      throw ValidationError("--tls-handshake-timeout must be positive")
    }
  }

  /// The TLS configuration the flags give, `nil` without `--tls-cert`.
  func serverConfiguration() throws -> TLSServerConfiguration? {
    guard let certificate, let key else {
      if certificate != nil || key != nil {
        throw ValidationError("--tls-cert and --tls-key: give both")
      }
      if clientAuthorities != nil || clientCertificates != nil {
        throw ValidationError("--tls-client-ca and --tls-client-cert need --tls-cert")
      }
      return nil
    }
    let policy: TLSServerConfiguration.ClientCertificates
    switch (
      clientCertificates ?? (clientAuthorities == nil ? "none" : "request"), clientAuthorities
    )
    {
    case ("none", nil): policy = .none
    case ("none", _?):
      throw ValidationError("--tls-client-ca is unused with --tls-client-cert none")
    case ("request", let authorities?): policy = .request(caFile: authorities)
    case ("require", let authorities?): policy = .require(caFile: authorities)
    case ("request", nil), ("require", nil):
      throw ValidationError("--tls-client-cert \(clientCertificates ?? ""): needs --tls-client-ca")
    case (let other, _):
      throw ValidationError("--tls-client-cert \(other): expected none, request or require")
    }
    return TLSServerConfiguration(
      certificateChainFile: certificate, privateKeyFile: key, clientCertificates: policy)
  }

  /// Puts the flags into `configuration`; refuses TLS listeners without a certificate.
  func apply(to configuration: inout ServerConfiguration) throws {
    configuration.tls = try serverConfiguration()
    configuration.tlsHandshakeTimeout = .milliseconds(Int(handshakeTimeout * 1000))
    let listeners = configuration.tlsListen.count + configuration.httpsListen.count
    if listeners > 0, configuration.tls == nil {
      throw ValidationError("tls:// and https:// listeners need --tls-cert and --tls-key")
    }
  }
}
