import ObservableAuthorization
import TestSupport
import XCTest

/// `observable-server token USER` prints a token and the file member that accepts it.
final class TokenCommandTests: XCTestCase {
  func testThePrintedLineAcceptsThePrintedToken() throws {
    let command = try ServerProcess(arguments: ["token", "ann"])
    XCTAssertEqual(command.waitForExit(timeout: .seconds(20)), 0, command.output)
    let lines = command.output.split(separator: "\n").map(String.init)
    XCTAssertEqual(lines.count, 2, command.output)
    let token = try XCTUnwrap(lines.first)
    XCTAssertEqual(token.count, 64)
    let file = try AuthorizationFile.parse(Array("{\"users\": {\(lines[1])}}".utf8))
    XCTAssertTrue(try XCTUnwrap(file.users["ann"]).digest.matches(token))
    XCTAssertFalse(lines[1].contains(token))
  }
}
