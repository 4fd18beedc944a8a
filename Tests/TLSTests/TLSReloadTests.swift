import Foundation
import TLS
import TestSupport
import XCTest

/// Reloading builds a new context for new sessions; open sessions keep theirs, and a reload
/// that fails keeps the old context.
final class TLSReloadTests: CertificateTestCase {

  override func setUpWithError() throws {
    try super.setUpWithError()
    try install("server")
  }

  /// Puts `name`'s certificate and key where the server reads them.
  private func install(_ name: String) throws {
    try certificates.replace("live.pem", with: "\(name).pem")
    try certificates.replace("live.key", with: "\(name).key")
  }

  private var configuration: TLSServerConfiguration {
    TLSServerConfiguration(
      certificateChainFile: certificates.path("live.pem"),
      privateKeyFile: certificates.path("live.key"))
  }

  /// The serial of the certificate `s_client` is served, as `openssl x509` reads it.
  private func servedSerial(_ context: ReloadableTLSContext) throws -> String {
    let (pump, client) = try serve(context.current) {
      try openSSLClient($0, certificates, [])
    }
    // Not quiet: s_client prints the server's certificate, and ends at the end of stdin.
    client.closeInput()
    pump.run { $0.socketEnded || $0.failure != nil }
    // s_client says close_notify at the end of its stdin.
    XCTAssertTrue(pump.session.peerSentCloseNotify)
    XCTAssertNil(pump.failure)
    client.exitStatus()
    try certificates.write("seen.txt", client.stdout)
    let x509 = try ChildProcess(
      tool: "openssl", ["x509", "-noout", "-serial", "-in", certificates.path("seen.txt")])
    x509.closeInput()
    x509.exitStatus()
    return x509.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
  }

  func testNewConnectionsGetTheNewCertificateAndOpenOnesGoOn() throws {
    let context = try ReloadableTLSContext(configuration)
    XCTAssertEqual(try servedSerial(context), "serial=1001")
    let (open, client) = try serve(context.current) { try openSSLClient($0, certificates) }
    open.echoes = true
    client.write("before\n")
    XCTAssertTrue(open.run { $0.text == "before\n" })

    try install("renewed")
    try context.reload()
    XCTAssertEqual(try servedSerial(context), "serial=2002")

    client.write("after\n")
    XCTAssertTrue(open.run { $0.text == "before\nafter\n" }, "\(open.failure as Any)")
    XCTAssertTrue(client.wait { $0.stdout == "before\nafter\n" })
    XCTAssertEqual(finish(open, client), 0, client.stderr)
  }

  func testAFailedReloadKeepsTheOldCertificate() throws {
    let context = try ReloadableTLSContext(configuration)
    // The new certificate arrives, its key does not.
    try certificates.replace("live.pem", with: "renewed.pem")
    XCTAssertThrowsError(try context.reload()) { error in
      XCTAssertEqual((error as? TLSConfigurationError)?.part, .keyMismatch)
    }
    XCTAssertEqual(try servedSerial(context), "serial=1001")

    try FileManager.default.removeItem(atPath: certificates.path("live.pem"))
    XCTAssertThrowsError(try context.reload()) { error in
      XCTAssertEqual(
        "\(error)",
        "TLS certificate chain (\(certificates.path("live.pem"))): No such file or directory")
    }
    XCTAssertEqual(try servedSerial(context), "serial=1001")
  }

  func testReloadingWhileLoopsTakeTheContextIsSafe() throws {
    let context = try ReloadableTLSContext(configuration)
    try install("renewed")
    let done = DispatchGroup()
    // Two "event loops" make sessions from the current context while another thread reloads.
    for _ in 0..<2 {
      DispatchQueue.global().async(group: done) {
        for _ in 0..<200 { _ = try? TLSSession(context: context.current) }
      }
    }
    for _ in 0..<20 { try context.reload() }
    XCTAssertEqual(done.wait(timeout: .now() + 30), .success)
  }
}
