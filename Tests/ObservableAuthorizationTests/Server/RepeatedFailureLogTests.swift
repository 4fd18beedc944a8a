import Foundation
import TestSupport
import XCTest

@testable import ObservableLogging

/// A client that fails in a loop (wrong tokens, bogus signed tokens, forbidden publishes)
/// makes a few log lines a second and a count of the rest, even at debug, and none of them
/// shows a credential.
final class RepeatedFailureLogTests: XCTestCase {
  func testFloodsOfFailuresLogAFewLinesAndACountWithoutCredentials() throws {
    let server = try AuthorizedServer()
    let wrong = "wrong-credential-\(UInt32.random(in: 0...UInt32.max))"
    let refusedAuths = 200
    let forbiddenPublishes = 2_000
    let start = ContinuousClock.now
    for attempt in 0..<refusedAuths {
      // A wrong `auth` closes the connection, so each failure takes one.
      let client = try LineClient(port: server.port)
      let auth =
        attempt.isMultiple(of: 2)
        ? #"{"op":"auth","user":"ann","token":"\#(wrong)"}"#
        : #"{"op":"auth","jwt":"\#(wrong).\#(wrong).\#(wrong)"}"#
      XCTAssertEqual(errorCode(try client.request(auth)), "unauthorized")
      client.close()
    }
    // A forbidden request leaves the connection open, so one client can send them in a loop.
    let ann = try server.client("ann")
    try ann.sendRaw(
      Array(String(repeating: "publish room.locked 1\n", count: forbiddenPublishes).utf8))
    for _ in 0..<forbiddenPublishes {
      XCTAssertEqual(errorCode(try ann.readJSON(timeout: .seconds(10))), "forbidden")
    }
    let seconds = Double((ContinuousClock.now - start).components.seconds) + 1

    for (kind, attempts) in [
      ("authentication failed", refusedAuths), ("forbidden", forbiddenPublishes),
    ] {
      // The last window's count comes out when the window ends, with no further failure.
      XCTAssertTrue(
        eventually(timeout: .seconds(5)) {
          let logged = Self.logged(kind, in: server.process.output)
          return logged.lines + logged.counted == attempts
        }, "\(kind): \(Self.logged(kind, in: server.process.output)) of \(attempts)")
      let lines = Self.logged(kind, in: server.process.output).lines
      // Five a second per kind; the flood spans a few windows on a busy machine.
      XCTAssertLessThanOrEqual(
        lines, RepeatedWarnings.perSecond * (Int(seconds) + 1), "\(kind): \(lines) lines")
      XCTAssertGreaterThan(lines, 0, kind)
    }
    let log = server.process.output
    let secrets =
      AuthorizedServer.tokens.values.map(\.token)
      + [
        wrong, AuthorizedServer.sharedToken,
        String(decoding: AuthorizedServer.jwtSecret, as: UTF8.self),
      ]
    for secret in secrets {
      XCTAssertFalse(log.contains(secret), "the log shows a credential")
    }
  }

  /// Refused credentials on the HTTP port (`/sse`, the HTTP API) are logged as a refused `auth`
  /// is: a few lines a second and a count of the rest, never the credential.
  func testRefusedHTTPCredentialsLogAFewLinesAndACount() throws {
    let server = try AuthorizedServer()
    let wrong = "wrong-credential-\(UInt32.random(in: 0...UInt32.max))"
    let attempts = 120
    let start = ContinuousClock.now
    for attempt in 0..<attempts {
      let request =
        attempt.isMultiple(of: 2)
        ? "GET /sse?stream=room.lobby&user=ann&token=\(wrong) HTTP/1.1\r\n"
          + "Host: localhost\r\nConnection: close\r\n\r\n"
        : "GET /streams/room.lobby HTTP/1.1\r\nHost: localhost\r\n"
          + "Authorization: Bearer \(wrong)\r\nConnection: close\r\n\r\n"
      let answer = try server.httpAnswer(request)
      XCTAssertTrue(answer.hasPrefix("HTTP/1.1 401"), String(answer.prefix(80)))
    }
    let seconds = Double((ContinuousClock.now - start).components.seconds) + 1
    XCTAssertTrue(
      eventually(timeout: .seconds(5)) {
        let logged = Self.logged("authentication failed", in: server.process.output)
        return logged.lines + logged.counted == attempts
      }, "\(Self.logged("authentication failed", in: server.process.output)) of \(attempts)")
    let lines = Self.logged("authentication failed", in: server.process.output).lines
    XCTAssertGreaterThan(lines, 0)
    XCTAssertLessThanOrEqual(lines, RepeatedWarnings.perSecond * (Int(seconds) + 1))
    XCTAssertTrue(server.process.output.contains("via=http"))
    XCTAssertFalse(server.process.output.contains(wrong), "the log shows a credential")
  }

  /// Lines of `kind` in `log`, and the sum of the counts of those not logged.
  static func logged(_ kind: String, in log: String) -> (lines: Int, counted: Int) {
    let lines = log.split(separator: "\n")
    let own = lines.filter { $0.contains(#"msg="\#(kind)""#) }.count
    // logfmt quotes a value only when it has a space.
    let ofKind: (Substring) -> Bool =
      kind.contains(" ")
      ? { $0.contains(#"kind="\#(kind)""#) } : { $0.split(separator: " ").contains("kind=\(kind)") }
    let counted =
      lines
      .filter { $0.contains(#"msg="warnings not logged""#) && ofKind($0) }
      .compactMap { line in
        line.split(separator: " ").first { $0.hasPrefix("count=") }.flatMap {
          Int($0.dropFirst("count=".count))
        }
      }
      .reduce(0, +)
    return (own, counted)
  }
}
