import Foundation
import ObservableCounters
import ObservablePOSIX
import TLS
import TestSupport

@testable import ObservableServer

/// A ``TestServer`` that also serves the line protocol over TLS, and HTTPS when asked, on free
/// loopback ports, with the certificates of one test.
extension TestServer {
  /// Starts a server with a plain listener, `tls://127.0.0.1:0` and, with `https`,
  /// `https://127.0.0.1:0`, serving `certificate` (a name in `certificates`) with the key
  /// `key` (the certificate's own by default).
  static func withTLS(
    _ certificates: TestCertificates, certificate: String = "server", key: String? = nil,
    https: Bool = false,
    clientCertificates: TLSServerConfiguration.ClientCertificates = .none,
    _ configure: (inout ServerConfiguration) -> Void = { _ in }
  ) throws -> TestServer {
    try TestServer {
      $0.tlsListen = [.tcp(host: "127.0.0.1", port: 0)]
      if https { $0.httpsListen = [.tcp(host: "127.0.0.1", port: 0)] }
      $0.tls = TLSServerConfiguration(
        certificateChainFile: certificates.path("\(certificate).pem"),
        privateKeyFile: certificates.path("\(key ?? certificate).key"),
        clientCertificates: clientCertificates)
      configure(&$0)
    }
  }

  /// The port of the first TLS address.
  var tlsPort: UInt16 { Self.port(of: server.tlsAddresses) }

  /// The port of the first HTTPS address.
  var httpsPort: UInt16 { Self.port(of: server.httpsAddresses) }

  /// A TLS client that trusts the test authority, handshake done, greeting not read.
  func connectTLS(
    _ certificates: TestCertificates, certificate: String? = nil, timeout: Duration = .seconds(5)
  ) throws -> TLSLineClient {
    try TLSLineClient(
      port: tlsPort, context: TLSLineClient.context(certificates, certificate: certificate),
      timeout: timeout)
  }

  /// The TLS counters of `stats`: connections, handshakes, failures.
  var tlsCounters: (connections: Int, handshakes: Int, failures: TLSHandshakeFailureCounts) {
    let now = server.counters.snapshot
    return (now.tlsConnections, now.tlsHandshakesTotal, now.tlsHandshakeFailures)
  }

  private static func port(of addresses: [ListenAddress]) -> UInt16 {
    addresses.lazy.compactMap { address -> UInt16? in
      if case .tcp(_, let port) = address { return port }
      return nil
    }.first ?? 0
  }

  /// Runs `tls_peer.py` against the TLS port and returns the JSON object it printed.
  func tlsPeer(
    _ scenario: String, _ certificates: TestCertificates, _ arguments: [String] = []
  ) throws -> [String: Any] {
    let output = try PythonScript(name: "tls_peer.py").run(
      ["--port", "\(tlsPort)", "--ca", certificates.path("ca.pem")] + arguments + [scenario])
    return try JSONSerialization.jsonObject(with: output) as? [String: Any] ?? [:]
  }
}
