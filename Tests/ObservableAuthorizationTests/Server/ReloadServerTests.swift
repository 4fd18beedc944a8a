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

  /// A subscription to a concrete name delivers without a check of each value: the reload is
  /// reported only once every connection has ended those the new rules forbid, so nothing
  /// published after the report reaches them.
  func testNothingPublishedAfterAReloadReachesASubscriptionItForbids() throws {
    // Two loops and two publishers, so that one publishes from a loop other than ann's.
    let server = try AuthorizedServer(extra: ["--threads", "2"])
    let ann = try server.client("ann")
    let publishers = [try server.client(nil), try server.client(nil)]
    for line in ["subscribe room.lobby", "subscribe user.ann.inbox"] {
      XCTAssertNil(errorCode(try ann.request(line)), line)
    }

    // Ann may no longer read any room.
    let stricter = AuthorizedServer.fileText().replacingOccurrences(
      of: #""allow": ["room.>", "user.{user}.>"]"#, with: #""allow": ["user.{user}.>"]"#)
    XCTAssertNotEqual(stricter, AuthorizedServer.fileText())
    try stricter.write(toFile: server.authFile, atomically: true, encoding: .utf8)
    server.process.signal(SIGHUP)
    XCTAssertTrue(server.process.waitForLog("auth file reloaded"), server.process.output)
    for publisher in publishers {
      try publisher.request(#"{"op":"publish","stream":"room.lobby","value":1}"#)
    }
    try publishers[0].request(#"{"op":"publish","stream":"user.ann.inbox","value":1}"#)
    let read = try valuesUntil("user.ann.inbox", on: ann)
    XCTAssertEqual(read.topics, ["user.ann.inbox"])
    // The notice came before the reload was reported, so before either value.
    XCTAssertEqual(read.notices, ["forbidden"])
  }

  /// A pattern wholly allowed when subscribed that a reload allows only in part delivers only
  /// the topics the new rules allow, without ending.
  func testAPatternAReloadNarrowsDeliversOnlyWhatItStillAllows() throws {
    let server = try AuthorizedServer()
    let cat = try server.client("cat")
    let publisher = try server.client(nil)
    XCTAssertNil(errorCode(try cat.request("subscribe user.>")))

    // Cat may no longer read bob's subtree.
    let narrower = AuthorizedServer.fileText().replacingOccurrences(
      of: #""deny": ["room.>"]"#, with: #""deny": ["room.>", "user.bob.>"]"#)
    XCTAssertNotEqual(narrower, AuthorizedServer.fileText())
    try narrower.write(toFile: server.authFile, atomically: true, encoding: .utf8)
    server.process.signal(SIGHUP)
    XCTAssertTrue(server.process.waitForLog("auth file reloaded"), server.process.output)
    for topic in ["user.bob.x", "user.cat.x"] {
      try publisher.request(#"{"op":"publish","stream":"\#(topic)","value":1}"#)
    }
    let read = try valuesUntil("user.cat.x", on: cat)
    XCTAssertEqual(read.topics, ["user.cat.x"])
    XCTAssertEqual(read.notices, [])
  }

  /// The topics of the values `client` reads up to the first one on `last`, and the error
  /// codes of the notices among them.
  private func valuesUntil(_ last: String, on client: LineClient) throws -> (
    topics: [String], notices: [String]
  ) {
    var topics: [String] = []
    var notices: [String] = []
    _ = try client.read(until: { line in
      if let code = errorCode(line) { notices.append(code) }
      guard line["value"] != nil, let topic = line["stream"] as? String else { return false }
      topics.append(topic)
      return topic == last
    })
    return (topics, notices)
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
