import Foundation
import Glibc
import ObservableAuthorization
import TestSupport
import XCTest

/// SIGHUP rereads the authorization file: subscriptions it forbids end once, with a notice;
/// the others go on; a bad file keeps the rules in force.
final class ReloadServerTests: XCTestCase {
  func testAReloadEndsWhatItForbidsAndKeepsTheRest() throws {
    let server = try AuthorizedServer()
    let ann = try server.client("ann")
    let bob = try server.client("bob")
    let publisher = try server.client(nil)
    for line in ["subscribe room.lobby", "subscribe user.ann.>"] {
      XCTAssertNil(errorCode(try ann.request(line)), line)
    }
    XCTAssertNil(errorCode(try bob.request("subscribe room.lobby")))
    let before = try publisher.stats()["disconnects_total"] ?? -1

    // Ann may no longer read any room.
    let stricter = AuthorizedServer.fileText().replacingOccurrences(
      of: #""allow": ["room.>", "user.{user}.>"]"#, with: #""allow": ["user.{user}.>"]"#)
    XCTAssertNotEqual(stricter, AuthorizedServer.fileText())
    try stricter.write(toFile: server.authFile, atomically: true, encoding: .utf8)
    server.process.signal(SIGHUP)
    let notice = try ann.read(until: { errorCode($0) == "forbidden" })
    XCTAssertTrue("\(notice)".contains("room.lobby"), "\(notice)")
    XCTAssertTrue(server.process.waitForLog("auth file reloaded"), server.process.output)

    for topic in ["room.lobby", "user.ann.x"] {
      try publisher.request(#"{"op":"publish","stream":"\#(topic)","value":1}"#)
    }
    XCTAssertEqual(try ann.read(until: { $0["stream"] != nil })["stream"] as? String, "user.ann.x")
    XCTAssertEqual(try bob.read(until: { $0["stream"] != nil })["stream"] as? String, "room.lobby")
    XCTAssertEqual(errorCode(try ann.request("subscribe room.lobby")), "forbidden")
    // The stats read before ended one subscription, the reload one more: no second disconnect.
    XCTAssertEqual(try publisher.stats()["disconnects_total"], before + 2)
  }

  /// A publisher's batched publishes skip the rules while its decisions are current; a reload
  /// makes them stale, so the next publish to the same topic is judged by the new rules.
  func testAReloadEndsBatchedPublishingThatItForbids() throws {
    let server = try AuthorizedServer()
    let ann = try server.client("ann")
    // A subscriber, so that the topic exists and the publishes batch on it.
    let bob = try server.client("bob")
    XCTAssertNil(errorCode(try bob.request("subscribe room.lobby")))
    let line = #"{"op":"publish","stream":"room.lobby","value":1}"# + "\n"
    let burst = Array(String(repeating: line, count: 50).utf8)
    try ann.sendRaw(burst)
    for _ in 0..<50 { XCTAssertNil(errorCode(try ann.readJSON())) }

    // Ann may no longer publish to room.lobby.
    let stricter = AuthorizedServer.fileText().replacingOccurrences(
      of: #""deny": ["room.locked"]"#, with: #""deny": ["room.locked", "room.lobby"]"#)
    XCTAssertNotEqual(stricter, AuthorizedServer.fileText())
    try stricter.write(toFile: server.authFile, atomically: true, encoding: .utf8)
    server.process.signal(SIGHUP)
    XCTAssertTrue(server.process.waitForLog("auth file reloaded"), server.process.output)
    try ann.sendRaw(burst)
    for _ in 0..<50 { XCTAssertEqual(errorCode(try ann.readJSON()), "forbidden") }
  }

  func testABadFileKeepsTheRulesAndLogsItsLineOnce() throws {
    let server = try AuthorizedServer()
    try "{\"users\": {\n\"ann\": {\"token\": \"sha256:00\"}}}".write(
      toFile: server.authFile, atomically: true, encoding: .utf8)
    server.process.signal(SIGHUP)
    XCTAssertTrue(server.process.waitForLog("not reloaded"), server.process.output)
    let errors = server.process.output.split(separator: "\n").filter {
      $0.contains("not reloaded")
    }
    XCTAssertEqual(errors.count, 1, server.process.output)
    XCTAssertTrue(errors.first?.contains("line 2") == true, "\(errors)")
    // Ann's old rules and token still hold.
    let ann = try server.client("ann")
    XCTAssertNil(errorCode(try ann.request("subscribe room.lobby")))
  }
}
