import Foundation
import TLS
import TestSupport
import XCTest

/// A server that asks for client certificates, against `openssl s_client`.
final class TLSClientCertificateTests: CertificateTestCase {

  private func context(requiring: Bool) throws -> TLSContext {
    let ca = certificates.path("ca.pem")
    return try TLSContext(
      server: TLSServerConfiguration(
        certificateChainFile: certificates.path("server.pem"),
        privateKeyFile: certificates.path("server.key"),
        clientCertificates: requiring ? .require(caFile: ca) : .request(caFile: ca)))
  }

  /// Serves one `s_client` that presents `certificate` (or none), over TLS 1.2 or 1.3.
  private func serve(requiring: Bool, certificate: String?, version: String = "-tls1_3")
    throws -> (TLSPump, ChildProcess)
  {
    let presented = certificate.map {
      ["-cert", certificates.path("\($0).pem"), "-key", certificates.path("\($0).key")]
    }
    return try serve(try context(requiring: requiring)) {
      try openSSLClient($0, certificates, ["-quiet", version] + (presented ?? []))
    }
  }

  func testRequiredCertificateNamesTheClient() throws {
    for version in ["-tls1_3", "-tls1_2"] {
      let (pump, client) = try serve(requiring: true, certificate: "client", version: version)
      client.write("who am I\n")
      XCTAssertTrue(pump.run { $0.text == "who am I\n" }, "\(pump.failure as Any)")
      let peer = pump.session.peerCertificate
      XCTAssertEqual(peer?.subject, "CN=alice,O=Example")
      XCTAssertEqual(peer?.alternativeNames, ["alice.example", "alice@example.com"])
      XCTAssertEqual(peer?.serialNumber, "5005")
      XCTAssertEqual(finish(pump, client), 0, client.stderr)
    }
  }

  func testRequiredCertificateMissingFailsTheHandshake() throws {
    let (pump, client) = try serve(requiring: true, certificate: nil)
    pump.run { $0.failure != nil }
    XCTAssertEqual(pump.failure?.kind, .peerCertificateMissing, "\(pump.failure as Any)")
    XCTAssertEqual(pump.handshakes, 0)
    client.closeInput()
    XCTAssertNotEqual(client.exitStatus(), 0)
    XCTAssertTrue(client.stderr.contains("certificate required"), client.stderr)
  }

  func testCertificateFromAnUnknownAuthorityFailsTheHandshake() throws {
    for requiring in [true, false] {
      let (pump, client) = try serve(requiring: requiring, certificate: "intruder")
      pump.run { $0.failure != nil }
      XCTAssertEqual(
        pump.failure?.kind, .certificateRejected(verifyResult: 20), "\(pump.failure as Any)")
      XCTAssertTrue(pump.failure?.message.contains("unable to get local issuer") ?? false)
      client.closeInput()
      XCTAssertNotEqual(client.exitStatus(), 0)
      XCTAssertTrue(client.stderr.contains("unknown ca"), client.stderr)
    }
  }

  func testRequestedCertificateMayBeAbsent() throws {
    let (pump, client) = try serve(requiring: false, certificate: nil)
    client.write("anonymous\n")
    XCTAssertTrue(pump.run { $0.text == "anonymous\n" }, "\(pump.failure as Any)")
    XCTAssertNil(pump.session.peerCertificate)
    XCTAssertEqual(finish(pump, client), 0, client.stderr)
  }
}
