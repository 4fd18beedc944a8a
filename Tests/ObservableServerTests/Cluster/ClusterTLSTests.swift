import Foundation
import TestSupport
import XCTest

@testable import ObservableServer

/// The cluster link to nats-server 2.9 with a `tls {}` block: INFO in clear with
/// `tls_required`, then the handshake on the same socket. Nodes joined over TLS replicate a
/// publish; a node that cannot trust the server, or has no client certificate for one that
/// verifies clients, does not join, and its log says why.
final class ClusterTLSTests: XCTestCase {
  private var certificates: TestCertificates!

  override func setUpWithError() throws {
    try RequiredTool.require(TestCertificates.isAvailable, "openssl")
    certificates = try TestCertificates()
  }

  override func tearDown() { certificates = nil }

  /// The `tls {}` block of every NATS node, serving `certificate` (with `key`); with
  /// `verify`, clients need a certificate too.
  private func tlsBlock(
    verify: Bool, certificate: String = "server", key: String = "server"
  ) -> String {
    """
    tls {
      cert_file: "\(certificates.path("\(certificate).pem"))"
      key_file: "\(certificates.path("\(key).key"))"
      ca_file: "\(certificates.path("ca.pem"))"
      verify: \(verify)
    }
    """
  }

  private var clientCertificate: [String] {
    [
      "--cluster-cert", certificates.path("client.pem"), "--cluster-key",
      certificates.path("client.key"),
    ]
  }

  func testNodesJoinedOverTLSReplicateAPublish() throws {
    let nats = try NATSClusterFixture(self, extraConfiguration: tlsBlock(verify: true))
    let ca = ["--cluster-ca-file", certificates.path("ca.pem")]
    // One node says tls:// and checks the name localhost; the other says nats:// and is
    // upgraded by tls_required, checking the address 127.0.0.1.
    let nodeA = try ClusterNode(
      self, urls: ["tls://localhost:\(nats.clientPorts[0])"], extra: ca + clientCertificate)
    let nodeB = try ClusterNode(self, urls: [nats.url(1)], extra: ca + clientCertificate)
    let publisher = try nodeA.client()
    let subscriber = try nodeB.client()
    try subscriber.request(#"{"op":"subscribe","stream":"secure.1"}"#)
    try subscriber.waitForFlow(from: publisher, stream: "secure.1")
    try publisher.request(#"{"op":"publish","stream":"secure.1","value":"over tls"}"#)
    let value = try subscriber.nextValue("secure.1", skipping: isWarmUp)
    XCTAssertEqual(value as? String, "over tls")
  }

  func testANodeThatCannotTrustTheServerOrHasNoCertificateDoesNotJoin() throws {
    let nats = try NATSClusterFixture(self, extraConfiguration: tlsBlock(verify: true))
    let url = "tls://localhost:\(nats.clientPorts[0])"
    let unknownAuthority = try ServerProcess(
      arguments: ["--listen", "127.0.0.1:0", "--cluster", url] + clientCertificate)
    let noCertificate = try ServerProcess(
      arguments: [
        "--listen", "127.0.0.1:0", "--cluster", url, "--cluster-ca-file",
        certificates.path("ca.pem"),
      ])
    XCTAssertTrue(
      unknownAuthority.waitForLog("unable to get local issuer certificate"),
      unknownAuthority.output)
    XCTAssertTrue(noCertificate.waitForLog("TLS failed"), noCertificate.output)
    for node in [unknownAuthority, noCertificate] {
      XCTAssertFalse(node.output.contains("cluster retained stream ready"), node.output)
      node.signal(SIGKILL)
      _ = node.waitForExit()
    }
  }

  func testAnExpiredCertificateOrAnotherHostsIsRefused() throws {
    for (certificate, key, reason) in [
      ("expired", "server", "certificate has expired"),
      ("elsewhere", "elsewhere", "hostname mismatch"),
    ] {
      let nats = try NATSClusterFixture(
        self, extraConfiguration: tlsBlock(verify: false, certificate: certificate, key: key))
      let node = try ServerProcess(
        arguments: [
          "--listen", "127.0.0.1:0", "--cluster", "tls://localhost:\(nats.clientPorts[0])",
          "--cluster-ca-file", certificates.path("ca.pem"),
        ])
      XCTAssertTrue(node.waitForLog(reason), "\(certificate): \(node.output)")
      XCTAssertFalse(node.output.contains("cluster connected"), node.output)
      node.signal(SIGKILL)
      _ = node.waitForExit()
    }
  }

  func testATLSURLRefusesAServerWithoutTLS() throws {
    let nats = try NATSClusterFixture(self)
    let node = try ServerProcess(
      arguments: [
        "--listen", "127.0.0.1:0", "--cluster", "tls://127.0.0.1:\(nats.clientPorts[0])",
        "--cluster-ca-file", certificates.path("ca.pem"),
      ])
    defer {
      node.signal(SIGKILL)
      _ = node.waitForExit()
    }
    XCTAssertTrue(node.waitForLog("does not offer TLS"), node.output)
    XCTAssertFalse(node.output.contains("cluster retained stream ready"), node.output)
  }

  func testClusterTLSFlagsAreCheckedAtStart() throws {
    let cases: [([String], String)] = [
      (["--cluster-ca-file", certificates.path("ca.pem")], "--cluster-ca-file needs --cluster"),
      (
        ["--cluster", "tls://127.0.0.1:4222", "--cluster-cert", certificates.path("client.pem")],
        "--cluster-cert and --cluster-key go together"
      ),
      (
        [
          "--cluster", "tls://127.0.0.1:4222", "--cluster-ca-file",
          certificates.path("missing.pem"),
        ],
        "missing.pem"
      ),
    ]
    for (arguments, message) in cases {
      let server = try ServerProcess(arguments: ["--listen", "127.0.0.1:0"] + arguments)
      XCTAssertEqual(server.waitForExit(timeout: .seconds(10)), 64, server.output)
      XCTAssertTrue(server.output.contains(message), "\(arguments): \(server.output)")
    }
  }
}
