import TestSupport
import XCTest

/// A test class whose tests each get fresh ``TestCertificates``, made with `openssl` (which
/// must be installed: a missing one fails under CI and skips elsewhere).
class CertificateTestCase: XCTestCase {
  /// This test's certificates and keys, removed after it.
  var certificates: TestCertificates!

  override func setUpWithError() throws {
    try require("openssl")
    certificates = try TestCertificates()
  }

  override func tearDown() { certificates = nil }
}
