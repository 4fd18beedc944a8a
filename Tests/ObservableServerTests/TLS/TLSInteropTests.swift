import Foundation
import TestSupport
import Testing

@testable import ObservableServer

/// The TLS listeners with clients that are not ours: `openssl s_client`, Python's `ssl`
/// module (deflate inside TLS too), and Chromium loading the live page over https with its
/// WebSocket over wss.
@Suite("TLS with independent clients", .timeLimit(.minutes(3)))
struct TLSInteropTests {
  @Test func openSSLClientSubscribesAndPublishes() throws {
    try RequiredTool.require(TestCertificates.openssl != nil, "openssl")
    let certificates = try TestCertificates()
    let server = try TestServer.withTLS(certificates)
    let client = try OpenSSLClient(port: server.tlsPort, certificates: certificates)
    #expect(client.waitForOutput(#""hello":"observable-server""#), "\(client.output)")
    client.write("subscribe s_client.room\n")
    #expect(client.waitForOutput(#""op":"subscribe""#), "\(client.output)")
    client.write("publish s_client.room \"hello over TLS\"\n")
    #expect(client.waitForOutput(#""stream":"s_client.room","value":"hello over TLS""#))
    #expect(server.tlsCounters.handshakes == 1)
  }

  @Test func pythonSSLSubscribesAndPublishes() throws {
    try RequiredTool.require(TestCertificates.openssl != nil, "openssl")
    try RequiredTool.require(PythonProcess.interpreter != nil, "python3")
    let certificates = try TestCertificates()
    let server = try TestServer.withTLS(certificates)
    let outcome = try server.tlsPeer("exchange", certificates)
    #expect((outcome["value"] as? [String: Any])?["over"] as? String == "tls", "\(outcome)")
    #expect(outcome["serial"] as? String == "1001")
    #expect(outcome["version"] as? String == "TLSv1.3")
  }

  @Test("compress inside TLS", arguments: [false, true])
  func pythonSSLCompressesInsideTLS(ioUring: Bool) throws {
    try RequiredTool.require(TestCertificates.openssl != nil, "openssl")
    try RequiredTool.require(PythonProcess.interpreter != nil, "python3")
    let certificates = try TestCertificates()
    let server = try TestServer.withTLS(certificates) { $0.sendBatching = ioUring ? .auto : .off }
    let outcome = try server.tlsPeer("compress", certificates)
    #expect(outcome["compressed"] as? Bool == true, "\(outcome)")
    #expect((outcome["value"] as? [String: Any])?["over"] as? String == "tls", "\(outcome)")
    let counters = server.server.counters.snapshot
    #expect(counters.bytesOutUncompressed > 0)
  }

  @Test func livePageOverHTTPSWithItsWebSocketOverWSS() throws {
    try RequiredTool.require(TestCertificates.openssl != nil, "openssl")
    try RequiredTool.require(PythonScript.interpreter(importing: "websockets") != nil, "websockets")
    let browsers = ["/usr/bin/chromium-headless-shell", "/usr/bin/chromium"]
    try RequiredTool.require(
      browsers.contains { FileManager.default.isExecutableFile(atPath: $0) },
      "chromium-headless-shell")
    let certificates = try TestCertificates()
    let server = try TestServer.withTLS(certificates, https: true)
    let shown = try LivePageBrowser(url: "https://localhost:\(server.httpsPort)/")
      .check(
        subscribe: ["clock", "news.*"], publish: "news.1", expect: ["clock", "news.1"],
        certificateAuthority: certificates.path("ca.pem"))
    #expect(shown.passed, "\(shown.summary)")
    #expect(server.tlsCounters.handshakes >= 1)
    #expect(server.server.counters.snapshot.webSocketConnectionsTotal >= 1)
  }
}
