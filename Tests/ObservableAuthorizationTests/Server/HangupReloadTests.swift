import Foundation
import Glibc
import TestSupport
import XCTest

/// One SIGHUP reloads both the TLS certificate and the authorization file, each on its own:
/// one that fails logs one error and keeps what it had, and does not stop the other.
final class HangupReloadTests: XCTestCase {
  func testOneSignalReloadsTheCertificateAndTheAuthFileEachOnItsOwn() throws {
    try RequiredTool.require(TestCertificates.isAvailable, "openssl")
    let certificates = try TestCertificates()
    let tlsPort = try freeLoopbackPort()
    let server = try AuthorizedServer(extra: [
      "--listen", "tls://127.0.0.1:\(tlsPort)", "--tls-cert", certificates.path("server.pem"),
      "--tls-key", certificates.path("server.key"),
    ])

    // A certificate whose key does not match and an auth file that does not parse: both stay.
    try certificates.replace("server.pem", with: "renewed.pem")
    try "{\"users\": {\n\"ann\": {\"token\": \"sha256:00\"}}}".write(
      toFile: server.authFile, atomically: true, encoding: .utf8)
    server.process.signal(SIGHUP)
    XCTAssertTrue(server.process.waitForLog("auth file not reloaded"), server.process.output)
    XCTAssertTrue(server.process.waitForLog("TLS certificate not reloaded"), server.process.output)
    let ann = try server.client("ann")
    XCTAssertNil(errorCode(try ann.request("subscribe room.lobby")))

    // Both good: both reloaded by the next signal; ann may no longer read any room.
    try certificates.replace("server.key", with: "renewed.key")
    let stricter = AuthorizedServer.fileText().replacingOccurrences(
      of: #""allow": ["room.>", "user.{user}.>"]"#, with: #""allow": ["user.{user}.>"]"#)
    try stricter.write(toFile: server.authFile, atomically: true, encoding: .utf8)
    server.process.signal(SIGHUP)
    XCTAssertTrue(server.process.waitForLog("auth file reloaded"), server.process.output)
    XCTAssertTrue(server.process.waitForLog("TLS certificate reloaded"), server.process.output)
    XCTAssertEqual(errorCode(try ann.read(until: { errorCode($0) != nil })), "forbidden")

    // Each failure was logged once, and nothing else at error.
    let errors = server.process.output.split(separator: "\n").filter { $0.contains("level=error") }
    XCTAssertEqual(errors.count, 2, "\(errors)")
  }
}
