import ArgumentParser
import ObservableClient

/// How the command checks a `tls://` server, and the certificate it presents to one.
struct TLSOptions: ParsableArguments {
  @Option(
    name: .customLong("ca-file"),
    help: "Trust the authorities in this PEM file instead of the system's.")
  var caFile: String?

  @Option(
    name: .customLong("cert"),
    help: "Present this client certificate (PEM, full chain) to a server that asks for one.")
  var certificate: String?

  @Option(name: .customLong("key"), help: "The client certificate's private key (PEM).")
  var key: String?

  @Flag(
    help: """
      Skip every check of the server's certificate: its authority, its expiry and its host \
      name. Traffic is still encrypted, but anyone on the path can pose as the server. For \
      self-signed test setups only.
      """)
  var insecure = false

  /// Refuses options that do nothing or contradict each other, so that nobody believes a
  /// plain connection is checked.
  func check(usesTLS: Bool) throws {
    let given = [
      ("--ca-file", caFile != nil), ("--cert", certificate != nil), ("--key", key != nil),
      ("--insecure", insecure),
    ]
    if !usesTLS, let flag = given.first(where: \.1)?.0 {
      throw ValidationError("\(flag) needs a tls:// address")
    }
    if insecure, caFile != nil {
      throw ValidationError("--insecure checks nothing, so --ca-file would do nothing")
    }
    if (certificate == nil) != (key == nil) {
      throw ValidationError("--cert and --key go together")
    }
  }

  /// What the client is given: the default checks unless told otherwise.
  var configuration: ClientTLSConfiguration {
    ClientTLSConfiguration(
      caFile: caFile, certificateFile: certificate, privateKeyFile: key,
      verifiesServer: !insecure)
  }
}
