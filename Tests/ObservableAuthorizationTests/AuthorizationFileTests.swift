import ObservableAuthorization
import ObservableCredentials
import XCTest

/// Reading the authorization file, and every way it can be wrong, with the line it names.
final class AuthorizationFileTests: XCTestCase {
  static let digest = TokenDigest(hashing: "secret-of-ann").text

  private func parse(_ text: String) throws -> AuthorizationFile {
    try AuthorizationFile.parse(Array(text.utf8))
  }

  /// The error `text` gives, which must name `line` and contain `words`.
  private func assertRefused(
    _ text: String, line: Int, _ words: String, file: StaticString = #filePath, at: UInt = #line
  ) {
    XCTAssertThrowsError(try parse(text), file: file, line: at) { error in
      guard let error = error as? AuthorizationFileError else {
        return XCTFail("\(error)", file: file, line: at)
      }
      XCTAssertEqual(error.line, line, "\(error)", file: file, line: at)
      XCTAssertTrue(error.message.contains(words), "\(error)", file: file, line: at)
    }
  }

  func testReadsUsersBothRuleFormsAndThePlaceholder() throws {
    let file = try parse(
      """
      {"users": {
        "ann": {"token": "\(Self.digest)", "subscribe": ["room.*", "user.{user}.>"],
                "publish": {"allow": ["user.{user}.>"], "deny": ["user.{user}.locked"]},
                "stats": true, "list": false}
      }}
      """)
    let ann = try XCTUnwrap(file.users["ann"])
    XCTAssertTrue(ann.digest.matches("secret-of-ann"))
    XCTAssertFalse(ann.digest.matches("secret-of-an"))
    XCTAssertEqual(ann.permissions.subscribe.allow.map(\.text), ["room.*", "user.ann.>"])
    XCTAssertEqual(ann.permissions.publish.deny.map(\.text), ["user.ann.locked"])
    XCTAssertTrue(ann.permissions.stats)
    XCTAssertFalse(ann.permissions.list)
  }

  func testSyntaxErrorNamesItsLine() {
    assertRefused("{\"users\": {\n  \"ann\": {\n    \"token\": \"x\",,\n  }\n}}", line: 3, "JSON")
    assertRefused("{\"users\": {}\n", line: 2, "JSON")
    assertRefused("[]", line: 1, "expected an object")
  }

  func testUnknownKeys() {
    assertRefused("{\n\"users\": {},\n\"groups\": {}}", line: 3, "unknown key \"groups\"")
    assertRefused(
      "{\"users\": {\"ann\": {\n\"token\": \"\(Self.digest)\",\n\"subscribes\": []}}}", line: 3,
      "unknown key \"subscribes\"")
    assertRefused(
      "{\"users\": {\"ann\": {\"token\": \"\(Self.digest)\",\n\"publish\": {\"allowed\": []}}}}",
      line: 2, "unknown key \"allowed\"")
  }

  func testEmptyAndInvalidPatterns() {
    assertRefused(
      "{\"users\": {\"ann\": {\"token\": \"\(Self.digest)\",\n\"subscribe\": [\"a\",\n\"\"]}}}",
      line: 3, "empty pattern")
    assertRefused(
      "{\"users\": {\"ann\": {\"token\": \"\(Self.digest)\",\n\"publish\": [\"a..b\"]}}}", line: 2,
      "empty token")
    assertRefused(
      "{\"users\": {\"ann\": {\"token\": \"\(Self.digest)\",\n\"publish\": [\"a.>.b\"]}}}",
      line: 2, "last token")
    assertRefused(
      "{\"users\": {\"ann\": {\"token\": \"\(Self.digest)\",\n\"publish\": [1]}}}", line: 2,
      "strings")
  }

  func testDuplicateUsers() {
    assertRefused(
      "{\"users\": {\n\"ann\": {\"token\": \"\(Self.digest)\"},\n\"ann\": {\"token\": \"\(Self.digest)\"}}}",
      line: 3, "appears twice")
  }

  func testMalformedHashes() {
    for token in [
      "secret-of-ann", "sha256:abc", "md5:" + String(repeating: "0", count: 64),
      "sha256:" + String(repeating: "g", count: 64),
    ] {
      assertRefused("{\"users\": {\"ann\": {\n\"token\": \"\(token)\"}}}", line: 2, "sha256:")
    }
    assertRefused("{\"users\": {\n\"ann\": {\"list\": true}}}", line: 2, "has no \"token\"")
  }

  func testUserNamesAndFlags() {
    assertRefused("{\"users\": {\n\"a.b\": {\"token\": \"\(Self.digest)\"}}}", line: 2, "user name")
    assertRefused(
      "{\"users\": {\"ann\": {\"token\": \"\(Self.digest)\",\n\"stats\": \"yes\"}}}", line: 2,
      "true or false")
  }

  func testMissingFileIsAnError() {
    XCTAssertThrowsError(try AuthorizationFile.load(path: "/nonexistent/auth.json"))
  }

  func testNewTokenMatchesItsLine() throws {
    let made = NewToken()
    XCTAssertEqual(made.token.count, 64)
    XCTAssertNotEqual(made.token, NewToken().token)
    let file = try parse("{\"users\": {\"ann\": {\(made.fileLine)}}}")
    XCTAssertTrue(try XCTUnwrap(file.users["ann"]).digest.matches(made.token))
  }
}
