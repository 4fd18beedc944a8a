import ObservableWire
import XCTest

/// The two new forms of `auth` on the wire: a file user with a token, and a signed token.
final class AuthRequestTests: XCTestCase {
  private func parsed(_ line: String) throws -> (user: String?, token: String?, jwt: String?) {
    var bytes = Array(line.utf8)
    return try bytes.withUnsafeMutableBytes { buffer in
      try RequestParser.parse(UnsafeRawBufferPointer(buffer)) { request in
        XCTAssertEqual(request.op, .auth)
        return (request.user, request.token, request.jwt)
      }
    }
  }

  func testJSONAndShorthand() throws {
    let user = try parsed(#"{"op":"auth","user":"ann","token":"t0k"}"#)
    XCTAssertEqual(user.user, "ann")
    XCTAssertEqual(user.token, "t0k")
    XCTAssertEqual(try parsed(#"{"op":"auth","jwt":"a.b.c"}"#).jwt, "a.b.c")
    let shorthand = try parsed("auth ann t0k")
    XCTAssertEqual(shorthand.user, "ann")
    XCTAssertEqual(shorthand.token, "t0k")
    let shared = try parsed("auth t0k")
    XCTAssertNil(shared.user)
    XCTAssertEqual(shared.token, "t0k")
    XCTAssertThrowsError(try parsed(#"{"op":"auth","user":1,"token":"t"}"#))
  }
}
