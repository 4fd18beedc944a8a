import Foundation
import TLS
import XCTest

/// Loading errors name the file and OpenSSL's reason.
final class TLSContextLoadingTests: CertificateTestCase {

  override func setUpWithError() throws {
    try super.setUpWithError()
    try certificates.write("garbage.pem", "not a certificate\n")
  }

  private func loadServer(
    _ chain: String, _ key: String,
    clients: TLSServerConfiguration.ClientCertificates = .none
  ) -> TLSConfigurationError? {
    do {
      _ = try TLSContext(
        server: TLSServerConfiguration(
          certificateChainFile: certificates.path(chain), privateKeyFile: certificates.path(key),
          clientCertificates: clients))
      return nil
    } catch {
      return error
    }
  }

  func testAGoodPairLoads() {
    XCTAssertNil(loadServer("server.pem", "server.key"))
    XCTAssertNil(
      loadServer("server.pem", "server.key", clients: .require(caFile: certificates.path("ca.pem")))
    )
  }

  func testMissingFilesAreNamed() {
    let chain = loadServer("absent.pem", "server.key")
    XCTAssertEqual(chain?.part, .certificateChain)
    XCTAssertEqual(chain?.file, certificates.path("absent.pem"))
    XCTAssertEqual(chain?.reason, "No such file or directory")
    XCTAssertEqual(
      chain?.description,
      "TLS certificate chain (\(certificates.path("absent.pem"))): No such file or directory")
    XCTAssertEqual(loadServer("server.pem", "absent.key")?.part, .privateKey)
    let authorities = loadServer(
      "server.pem", "server.key", clients: .request(caFile: certificates.path("absent.pem")))
    XCTAssertEqual(authorities?.part, .clientAuthorities)
  }

  func testBadPEMIsNamed() {
    let chain = loadServer("garbage.pem", "server.key")
    XCTAssertEqual(chain?.part, .certificateChain)
    XCTAssertEqual(chain?.reason, "no start line")
    let key = loadServer("server.pem", "garbage.pem")
    XCTAssertEqual(key?.part, .privateKey)
    XCTAssertEqual(key?.file, certificates.path("garbage.pem"))
    // A certificate where the key belongs.
    XCTAssertEqual(loadServer("server.pem", "server.pem")?.part, .privateKey)
    let authorities = loadServer(
      "server.pem", "server.key", clients: .require(caFile: certificates.path("garbage.pem")))
    XCTAssertEqual(authorities?.part, .clientAuthorities)
  }

  func testAKeyThatDoesNotMatchIsNamed() {
    let mismatch = loadServer("server.pem", "renewed.key")
    XCTAssertEqual(mismatch?.part, .keyMismatch)
    XCTAssertEqual(mismatch?.file, certificates.path("renewed.key"))
    XCTAssertEqual(mismatch?.reason, "key values mismatch")
    XCTAssertEqual(
      mismatch?.description,
      "TLS private key does not match the certificate (\(certificates.path("renewed.key"))): "
        + "key values mismatch")
  }

  func testClientAuthoritiesAreChecked() {
    XCTAssertThrowsError(
      try TLSContext(
        client: TLSClientConfiguration(
          serverVerification: .verify(caFile: certificates.path("garbage.pem"))))
    ) { error in
      XCTAssertEqual((error as? TLSConfigurationError)?.part, .serverAuthorities)
    }
    XCTAssertThrowsError(
      try TLSContext(
        client: TLSClientConfiguration(
          certificateChainFile: certificates.path("client.pem"),
          privateKeyFile: certificates.path("server.key")))
    ) { error in
      XCTAssertEqual((error as? TLSConfigurationError)?.part, .keyMismatch)
    }
    XCTAssertThrowsError(
      try TLSContext(
        client: TLSClientConfiguration(certificateChainFile: certificates.path("client.pem")))
    ) { error in
      XCTAssertEqual(
        "\(error)",
        "TLS private key (\(certificates.path("client.pem"))): "
          + "a client certificate needs both its chain and its key")
    }
  }
}
