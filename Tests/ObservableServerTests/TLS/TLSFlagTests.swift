import Foundation
import TestSupport
import Testing

/// The TLS flags as users type them: what is refused, with a message that says why, and a
/// client certificate policy that takes effect.
@Suite("TLS flags", .timeLimit(.minutes(1)))
struct TLSFlagTests {
  @Test(
    arguments: [
      (["--tls-cert", "c.pem"], "--tls-cert and --tls-key: give both"),
      (["--tls-client-cert", "require"], "need --tls-cert"),
      (
        ["--tls-cert", "c.pem", "--tls-key", "k.pem", "--tls-client-cert", "require"],
        "needs --tls-client-ca"
      ),
      (
        [
          "--tls-cert", "c.pem", "--tls-key", "k.pem", "--tls-client-cert", "maybe",
          "--tls-client-ca", "ca.pem",
        ], "expected none, request or require"
      ),
      (["--tls-handshake-timeout", "0"], "must be positive"),
      (["--listen", "tls://127.0.0.1"], "tls://host:port"),
      (["--http", "https://127.0.0.1:0"], "need --tls-cert and --tls-key"),
    ])
  func misuseIsAUsageError(_ arguments: [String], _ message: String) throws {
    let server = try ServerProcess(arguments: arguments)
    #expect(server.waitForExit() == 64, "\(server.output)")
    #expect(server.output.contains(message), "\(server.output)")
  }

  @Test func unreadableCertificateStopsTheStartNamingTheFile() throws {
    let server = try ServerProcess(arguments: [
      "--listen", "tls://127.0.0.1:0", "--tls-cert", "/nonexistent/cert.pem", "--tls-key",
      "/nonexistent/key.pem",
    ])
    #expect(server.waitForExit() == 1, "\(server.output)")
    #expect(server.output.contains("/nonexistent/cert.pem"), "\(server.output)")
  }

  @Test func requiredClientCertificateRefusesAClientWithout() throws {
    try RequiredTool.require(TestCertificates.openssl != nil, "openssl")
    let certificates = try TestCertificates()
    let port = try freeLoopbackPort()
    let server = try ServerProcess(arguments: [
      "--listen", "tls://127.0.0.1:\(port)", "--tls-cert", certificates.path("server.pem"),
      "--tls-key", certificates.path("server.key"), "--tls-client-ca", certificates.path("ca.pem"),
      "--tls-client-cert", "require", "--log-level", "notice",
    ])
    #expect(server.waitForLog("listening"), "\(server.output)")
    let context = try TLSLineClient.context(certificates)
    // TLS 1.3: the refusal arrives after the client's side of the handshake.
    let anonymous = try? TLSLineClient(port: port, context: context)
    if let anonymous { #expect(throws: (any Error).self) { try anonymous.readLine() } }
    #expect(server.waitForLog("TLS handshake failed"), "\(server.output)")
    #expect(server.output.contains("kind=client_certificate"), "\(server.output)")
    let alice = try TLSLineClient(
      port: port, context: TLSLineClient.context(certificates, certificate: "client"))
    #expect(try alice.readLine().contains(#""hello":"observable-server""#))
  }
}
