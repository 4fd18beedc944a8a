import Foundation
import Glibc
import ObservableCounters
import TLS
import TestSupport
import Testing

@testable import ObservableServer

/// What clients that do not complete a handshake get: each a clear outcome (the connection
/// closed, a failure counted by kind), a bystander served throughout, and nothing left behind
/// in memory.
@Suite("TLS handshakes that fail", .timeLimit(.minutes(2)))
struct TLSBadInputTests {
  /// A ClientHello record header that promises 512 bytes.
  static let helloHeader: [UInt8] = [
    0x16, 0x03, 0x01, 0x02, 0x00, 0x01, 0x00, 0x01, 0xFC, 0x03, 0x03,
  ]

  /// What a bad client does.
  enum Misbehaviour: String, CaseIterable, CustomTestStringConvertible {
    case plainText, httpRequest, garbageRecord, truncatedHello, vanishesMidHandshake

    var testDescription: String { rawValue }
  }

  @Test(arguments: Misbehaviour.allCases)
  func badClientIsClosedAndCounted(_ misbehaviour: Misbehaviour) throws {
    try RequiredTool.require(TestCertificates.openssl != nil, "openssl")
    let certificates = try TestCertificates()
    let server = try TestServer.withTLS(certificates)
    let bystander = try server.connectTLS(certificates)
    _ = try bystander.readLine()
    let bad = try LineClient(port: server.tlsPort, readGreeting: false)
    #expect(eventually { server.tlsCounters.connections == 2 })
    let released = WeakSet(server.server.openConnections)
    let expected: TLSHandshakeFailureCounts.Kind
    switch misbehaviour {
    case .plainText:
      try bad.send(#"{"op":"subscribe","stream":"clock"}"#)
      expected = .notTLS
    case .httpRequest:
      try bad.sendRaw(Array("GET / HTTP/1.1\r\nHost: localhost\r\n\r\n".utf8))
      expected = .notTLS
    case .garbageRecord:
      // A handshake record whose message is noise.
      try bad.sendRaw(Self.helloHeader + (0..<600).map { UInt8(truncatingIfNeeded: $0 &* 7) })
      expected = .protocolError
    case .truncatedHello:
      try bad.sendRaw(Self.helloHeader + [UInt8](repeating: 0, count: 40))
      shutdown(bad.fd, Int32(SHUT_WR))
      expected = .truncated
    case .vanishesMidHandshake:
      try bad.sendRaw(Self.helloHeader)
      bad.reset()
      expected = .truncated
    }
    if misbehaviour != .vanishesMidHandshake {
      #expect(bad.waitForClose(), "the server kept the connection open")
    }
    #expect(eventually { server.tlsCounters.failures[expected] == 1 }, "\(server.tlsCounters)")
    #expect(server.tlsCounters.failures.total == 1)
    #expect(eventually { released.liveCount == 1 }, "the bad connection is still live")
    try bystander.send("ping")
    #expect(try bystander.readLine().contains(#""op":"ping""#))
    #expect(server.tlsCounters.connections == 1)
  }

  @Test func stalledHandshakeIsClosedAtTheLimitAndHoldsASlotUntilThen() throws {
    try RequiredTool.require(TestCertificates.openssl != nil, "openssl")
    let certificates = try TestCertificates()
    let server = try TestServer.withTLS(certificates) {
      $0.tlsHandshakeTimeout = .milliseconds(500)
      $0.maxConnections = 2
    }
    let stalled = try LineClient(port: server.tlsPort, readGreeting: false)
    try stalled.sendRaw(Array(Self.helloHeader.prefix(5)))
    #expect(eventually { server.server.connectionCount == 1 })
    let released = WeakSet(server.server.openConnections)
    let started = ContinuousClock.now
    #expect(stalled.waitForClose(timeout: .seconds(5)))
    #expect(ContinuousClock.now - started >= .milliseconds(300))
    #expect(eventually { server.tlsCounters.failures[.timeout] == 1 })
    #expect(eventually { released.liveCount == 0 })
    #expect(server.server.connectionCount == 0)
  }

  @Test func handshakesCountTowardMaxConnections() throws {
    try RequiredTool.require(TestCertificates.openssl != nil, "openssl")
    let certificates = try TestCertificates()
    let server = try TestServer.withTLS(certificates) { $0.maxConnections = 1 }
    let silent = try LineClient(port: server.tlsPort, readGreeting: false)
    #expect(eventually { server.server.connectionCount == 1 })
    // The slot is taken by a handshake that has not even started: the next client is closed
    // without a word in clear.
    let refused = try LineClient(port: server.tlsPort, readGreeting: false)
    #expect(refused.waitForClose())
    #expect(refused.unreadText.isEmpty)
    silent.close()
  }

  @Test func oldProtocolVersionsAreRefused() throws {
    try RequiredTool.require(TestCertificates.openssl != nil, "openssl")
    let certificates = try TestCertificates()
    let server = try TestServer.withTLS(certificates)
    let bystander = try server.connectTLS(certificates)
    _ = try bystander.readLine()
    let outcome = try server.tlsPeer("old", certificates)
    let error = outcome["error"] as? String ?? ""
    #expect(error.contains("VERSION") || error.contains("version"), "\(outcome)")
    #expect(eventually { server.tlsCounters.failures[.protocolVersion] == 1 })
    try bystander.send("ping")
    #expect(try bystander.readLine().contains(#""op":"ping""#))
  }

  @Test func expiredCertificateIsRefusedByAVerifyingClient() throws {
    try RequiredTool.require(TestCertificates.openssl != nil, "openssl")
    let certificates = try TestCertificates()
    let server = try TestServer.withTLS(
      certificates, certificate: "expired", key: "server")
    #expect(throws: TLSFailure.self) { try server.connectTLS(certificates) }
    #expect(eventually { server.tlsCounters.failures[.peerAlert] == 1 })
    #expect(eventually { server.tlsCounters.connections == 0 })
    let plain = try server.connect()
    #expect(try plain.request("ping")["ok"] as? Bool == true)
  }

  @Test func renegotiationIsRefusedAndTheServerGoesOn() throws {
    try RequiredTool.require(TestCertificates.openssl != nil, "openssl")
    let certificates = try TestCertificates()
    let server = try TestServer.withTLS(certificates)
    // TLS 1.2: TLS 1.3 has no renegotiation at all.
    let client = try OpenSSLClient(
      port: server.tlsPort, certificates: certificates, quiet: false, extra: ["-tls1_2"])
    #expect(client.waitForOutput(#""hello":"observable-server""#))
    // `R` on its own line asks s_client to renegotiate; the server answers no_renegotiation,
    // which s_client takes as the end.
    client.write("R\n")
    #expect(client.waitForOutput("no renegotiation"), "\(client.output)")
    #expect(client.waitForExit())
    let bystander = try server.connectTLS(certificates)
    _ = try bystander.readLine()
    try bystander.send("ping")
    #expect(try bystander.readLine().contains(#""op":"ping""#))
    // One handshake per client: the renegotiation never became a second one.
    #expect(server.tlsCounters.handshakes == 2)
  }
}
