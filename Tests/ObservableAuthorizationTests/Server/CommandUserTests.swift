import Foundation
import TestSupport
import XCTest

/// The `observable` command as a user of the auth file (`--user` with `--token`) and with a
/// signed token (`--jwt`), against a real server.
final class CommandUserTests: XCTestCase {
  private func observable(_ arguments: [String], port: UInt16) throws -> (Int32?, String) {
    let process = try ChildProcess(
      "observable", arguments, environment: ["OBSERVABLE_SERVER": "127.0.0.1:\(port)"])
    let status = process.waitForExit()
    return (status, process.stdout + process.stderr)
  }

  func testUserAndSignedTokenOptions() async throws {
    let server = try AuthorizedServer()
    let ann = ["--user", "ann", "--token", AuthorizedServer.tokens["ann"]!.token]
    let allowed = try observable(["pub", "room.lobby", "1"] + ann, port: server.port)
    XCTAssertEqual(allowed.0, 0, allowed.1)
    let refused = try observable(["pub", "room.locked", "1"] + ann, port: server.port)
    XCTAssertEqual(refused.0, 1, refused.1)
    XCTAssertTrue(refused.1.contains("forbidden"), refused.1)
    // Ann's token is not bob's.
    let bob = ["--user", "bob", "--token", AuthorizedServer.tokens["ann"]!.token]
    let wrong = try observable(["ping"] + bob, port: server.port)
    XCTAssertEqual(wrong.0, 1, wrong.1)
    XCTAssertTrue(wrong.1.contains("unauthorized"), wrong.1)

    let jwt = try await MintedToken.make(expiresIn: 600)
    let signed = try observable(["pub", "user.web.x", "1", "--jwt", jwt], port: server.port)
    XCTAssertEqual(signed.0, 0, signed.1)
    let signedRefused = try observable(["pub", "room.lobby", "1", "--jwt", jwt], port: server.port)
    XCTAssertEqual(signedRefused.0, 1, signedRefused.1)
    XCTAssertTrue(signedRefused.1.contains("forbidden"), signedRefused.1)
  }
}
