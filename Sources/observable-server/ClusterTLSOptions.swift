import ArgumentParser
import TLS

/// How the cluster link checks a NATS server that requires TLS, and the certificate it
/// presents. TLS itself is on when the server's INFO says `tls_required` or a `--cluster` URL
/// says `tls://`; these flags only change the checks.
struct ClusterTLSOptions: ParsableArguments {
  @Option(
    name: .customLong("cluster-ca-file"),
    help: ArgumentHelp(
      "Trust the authorities in this PEM file for the NATS servers' certificates instead of the system's.",
      valueName: "path"))
  var caFile: String?

  @Option(
    name: .customLong("cluster-cert"),
    help: ArgumentHelp(
      "Present this client certificate (PEM, full chain) to NATS servers that verify clients.",
      valueName: "path"))
  var certificate: String?

  @Option(
    name: .customLong("cluster-key"),
    help: ArgumentHelp("The --cluster-cert certificate's private key (PEM).", valueName: "path"))
  var key: String?

  /// The first of these flags given, for "needs --cluster".
  var flagGiven: String? {
    if caFile != nil { return "--cluster-ca-file" }
    if certificate != nil { return "--cluster-cert" }
    if key != nil { return "--cluster-key" }
    return nil
  }

  /// The link's TLS configuration, `nil` when no flag was given; made into a context once
  /// here, so that a missing file or a key that does not match stops the server at start.
  func configuration() throws -> TLSClientConfiguration? {
    guard flagGiven != nil else { return nil }
    guard (certificate == nil) == (key == nil) else {
      throw ValidationError("--cluster-cert and --cluster-key go together")
    }
    let configuration = TLSClientConfiguration(
      serverVerification: .verify(caFile: caFile), certificateChainFile: certificate,
      privateKeyFile: key)
    do {
      _ = try TLSContext(client: configuration)
    } catch {
      throw ValidationError("cluster TLS: \(error.description)")
    }
    return configuration
  }
}
