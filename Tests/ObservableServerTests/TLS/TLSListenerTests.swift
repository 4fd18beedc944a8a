import Foundation
import TLS
import TestSupport
import Testing

@testable import ObservableServer

/// TLS listeners beside plain ones: the protocol inside TLS, on both write paths, with the
/// counters `stats` and `/metrics` show, and client certificates kept for authorization.
@Suite("TLS listeners", .timeLimit(.minutes(2)))
struct TLSListenerTests {
  @Test("subscribe and publish over TLS beside a plain listener", arguments: [false, true])
  func protocolInsideTLS(ioUring: Bool) throws {
    try RequiredTool.require(TestCertificates.openssl != nil, "openssl")
    let certificates = try TestCertificates()
    let server = try TestServer.withTLS(certificates) {
      $0.sendBatching = ioUring ? .auto : .off
    }
    let plain = try server.connect()
    let secure = try server.connectTLS(certificates)
    let greeting = try secure.readLine()
    #expect(greeting.contains(#""hello":"observable-server""#), "\(greeting)")
    #expect(secure.serverCertificate?.serialNumber == "1001")
    try secure.send("subscribe room.1")
    _ = try secure.readLine(containing: #""ok":true"#)
    // A large value crosses several TLS records and send batches.
    let big = String(repeating: "x", count: 100_000)
    try plain.request(#"publish room.1 "\#(big)""#)
    let delivery = try secure.readLine(containing: "room.1")
    #expect(delivery.contains(big))
    try secure.send(#"publish room.1 "from tls""#)
    let reply = try secure.readLine(containing: "from tls")
    #expect(reply.contains("room.1"))
    let counters = server.tlsCounters
    #expect(counters.connections == 1)
    #expect(counters.handshakes == 1)
    #expect(counters.failures.total == 0)
    let stats = try server.stats()
    #expect(stats["tls_connections"] as? Int == 1)
    #expect(stats["tls_handshakes_total"] as? Int == 1)
    #expect(stats["tls_handshake_failures_total"] as? Int == 0)
  }

  @Test func httpsServesMetricsWithTheTLSFamilies() throws {
    try RequiredTool.require(TestCertificates.openssl != nil, "openssl")
    let certificates = try TestCertificates()
    let server = try TestServer.withTLS(certificates, https: true)
    let client = try TLSLineClient(
      port: server.httpsPort, context: TLSLineClient.context(certificates))
    try client.send("GET /metrics HTTP/1.1\r\nHost: localhost\r\nConnection: close\r")
    try client.send("\r")
    var lines: [String] = []
    while let line = try? client.readLine() { lines.append(line) }
    let text = lines.joined(separator: "\n")
    #expect(text.hasPrefix("HTTP/1.1 200"), "\(text.prefix(200))")
    #expect(text.contains("observable_server_tls_connections_open 1"))
    #expect(text.contains("observable_server_tls_handshakes_total 1"))
    #expect(text.contains(#"observable_server_tls_handshake_failures_total{kind="not_tls"} 0"#))
  }

  @Test func clientCertificateNamesAreKeptForTheSession() throws {
    try RequiredTool.require(TestCertificates.openssl != nil, "openssl")
    let certificates = try TestCertificates()
    let server = try TestServer.withTLS(
      certificates, clientCertificates: .require(caFile: certificates.path("ca.pem")))
    let alice = try server.connectTLS(certificates, certificate: "client")
    _ = try alice.readLine()
    try alice.send("ping")
    _ = try alice.readLine()
    let names = server.server.openConnections.compactMap(\.peerCertificate)
    #expect(names.map(\.subject) == ["CN=alice,O=Example"])
    #expect(names.first?.alternativeNames == ["alice.example", "alice@example.com"])
  }

  @Test func unknownClientAuthorityIsRefusedWithoutHarmToOthers() throws {
    try RequiredTool.require(TestCertificates.openssl != nil, "openssl")
    let certificates = try TestCertificates()
    let server = try TestServer.withTLS(
      certificates, clientCertificates: .require(caFile: certificates.path("ca.pem")))
    let bystander = try server.connectTLS(certificates, certificate: "client")
    _ = try bystander.readLine()
    // TLS 1.3: the client finishes before the server checks its certificate, so the refusal
    // arrives as an alert on the first read.
    let intruder = try? server.connectTLS(certificates, certificate: "intruder")
    if let intruder { #expect(intruder.waitForEnd()) }
    #expect(eventually { server.tlsCounters.failures[.clientCertificate] == 1 })
    try bystander.send("ping")
    #expect(try bystander.readLine().contains(#""op":"ping""#))
    #expect(eventually { server.tlsCounters.connections == 1 })
  }
}
