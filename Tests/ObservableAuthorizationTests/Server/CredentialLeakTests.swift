import Foundation
import Glibc
import ObservableAuthorization
import TestSupport
import XCTest

/// No credential, right or wrong, shows in the server's log (at debug), its command line, its
/// `stats` or its `/metrics`.
final class CredentialLeakTests: XCTestCase {
  func testNoCredentialInLogsProcessListStatsOrMetrics() throws {
    let server = try AuthorizedServer()
    let wrong = "wrong-credential-\(UInt32.random(in: 0...UInt32.max))"
    for auth in [
      #"{"op":"auth","user":"ann","token":"\#(wrong)"}"#, "auth bob \(wrong)", "auth \(wrong)",
      #"{"op":"auth","jwt":"\#(wrong).\#(wrong).\#(wrong)"}"#,
    ] {
      let client = try LineClient(port: server.port)
      XCTAssertEqual(errorCode(try client.request(auth)), "unauthorized")
    }
    let ann = try server.client("ann")
    XCTAssertEqual(errorCode(try ann.request("publish room.locked 1")), "forbidden")
    let everyone = try server.client(nil)
    let stats = try everyone.request("subscribe stats")
    XCTAssertNil(errorCode(stats))
    let value = try everyone.read(until: { $0["stream"] as? String == "stats" })
    XCTAssertTrue(server.process.waitForLog("authentication failed"), server.process.output)
    XCTAssertTrue(server.process.waitForLog("forbidden"), server.process.output)
    let commandLine = try String(
      contentsOfFile: "/proc/\(server.process.process.processIdentifier)/cmdline",
      encoding: .utf8)
    let outputs = [
      "log": server.process.output, "ps": commandLine, "stats": "\(value)",
      "metrics": try server.metrics(),
    ]
    var secrets =
      AuthorizedServer.tokens.values.map(\.token) + [wrong, AuthorizedServer.sharedToken]
    secrets.append(String(decoding: AuthorizedServer.jwtSecret, as: UTF8.self))
    for (name, text) in outputs {
      XCTAssertFalse(text.isEmpty, name)
      for secret in secrets {
        XCTAssertFalse(text.contains(secret), "\(name) shows a credential")
      }
    }
  }
}
