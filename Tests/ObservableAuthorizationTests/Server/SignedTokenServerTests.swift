import Foundation
import Glibc
import ObservableAuthorization
import TestSupport
import XCTest

/// Signed tokens minted here, sent to a real server over TCP.
final class SignedTokenServerTests: XCTestCase {
  private func mint(
    expiresIn seconds: TimeInterval, secret: [UInt8] = AuthorizedServer.jwtSecret
  ) async throws -> String {
    try await MintedToken.make(expiresIn: seconds, secret: secret)
  }

  func testAValidTokenGivesItsClaimsPermissions() async throws {
    let server = try AuthorizedServer()
    let client = try LineClient(port: server.port)
    let token = try await mint(expiresIn: 600)
    XCTAssertEqual(try client.request(#"{"op":"auth","jwt":"\#(token)"}"#)["ok"] as? Bool, true)
    XCTAssertNil(errorCode(try client.request("subscribe room.lobby")))
    XCTAssertNil(errorCode(try client.request("publish user.web.x 1")))
    XCTAssertEqual(errorCode(try client.request("publish room.lobby 1")), "forbidden")
    XCTAssertEqual(errorCode(try client.request("subscribe stats")), "forbidden")
    XCTAssertEqual(errorCode(try client.request("list")), "forbidden")
  }

  func testExpiredForgedAndUnsignedTokensAreRefused() async throws {
    let server = try AuthorizedServer()
    let valid = try await mint(expiresIn: 600)
    let unsigned =
      Data(#"{"alg":"none","typ":"JWT"}"#.utf8).base64EncodedString()
      .replacingOccurrences(of: "=", with: "") + "."
      + valid.split(separator: ".")[1] + "."
    for (token, reason) in [
      (try await mint(expiresIn: -10), "expired"),
      (try await mint(expiresIn: 600, secret: Array(repeating: 0x61, count: 32)), "signature"),
      (unsigned, "algorithm"),
    ] {
      let client = try LineClient(port: server.port)
      let reply = try client.request(#"{"op":"auth","jwt":"\#(token)"}"#)
      XCTAssertEqual(errorCode(reply), "unauthorized", reason)
      let message = (reply["error"] as? [String: Any])?["message"] as? String ?? ""
      XCTAssertTrue(message.contains(reason), message)
      XCTAssertTrue(client.waitForClose(), reason)
    }
  }

  func testExpiryGivesANoticeAndAFreshAuthKeepsTheConnection() async throws {
    let server = try AuthorizedServer(extra: ["--auth-timeout", "2"])
    let refreshed = try LineClient(port: server.port)
    let lapsed = try LineClient(port: server.port)
    let short = try await mint(expiresIn: 2)
    for client in [refreshed, lapsed] {
      XCTAssertEqual(try client.request(#"{"op":"auth","jwt":"\#(short)"}"#)["ok"] as? Bool, true)
      XCTAssertNil(errorCode(try client.request("subscribe room.lobby")))
    }
    let isNotice: ([String: Any]) -> Bool = { errorCode($0) == "unauthorized" }
    let notice = try refreshed.read(until: isNotice, timeout: .seconds(10))
    XCTAssertTrue("\(notice)".contains("expired"), "\(notice)")
    let fresh = try await mint(expiresIn: 600)
    XCTAssertEqual(try refreshed.request(#"{"op":"auth","jwt":"\#(fresh)"}"#)["ok"] as? Bool, true)
    _ = try lapsed.read(until: isNotice, timeout: .seconds(10))
    // The lapsed one is closed after the grace; the refreshed one, whose grace began first
    // (it authenticated first), goes on past it.
    XCTAssertTrue(lapsed.waitForClose(timeout: .seconds(10)))
    XCTAssertEqual(try refreshed.request("ping")["ok"] as? Bool, true)
  }
}
