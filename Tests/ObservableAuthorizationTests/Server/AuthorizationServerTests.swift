import Foundation
import Glibc
import JWTKit
import ObservableAuthorization
import TestSupport
import XCTest

/// Users, rules and signed tokens through a real server over TCP.
final class AuthorizationServerTests: XCTestCase {
  func testEachUserGetsForbiddenForWhatTheRulesDenyAndStaysConnected() throws {
    let server = try AuthorizedServer()
    let ann = try server.client("ann")
    let bob = try server.client("bob")
    let cat = try server.client("cat")
    // (client, request, expected error code or nil for ok)
    let cases: [(LineClient, String, String, String?)] = [
      (ann, "ann", #"{"op":"publish","stream":"room.lobby","value":1}"#, nil),
      (ann, "ann", #"{"op":"publish","stream":"room.locked","value":1}"#, "forbidden"),
      (
        ann, "ann", #"{"op":"publish","stream":"room.locked","value":1,"retain":true}"#, "forbidden"
      ),
      (ann, "ann", #"{"op":"publish","stream":"room.lobby","value":1,"retain":true}"#, nil),
      (ann, "ann", #"{"op":"clear","stream":"room.locked"}"#, "forbidden"),
      (ann, "ann", #"{"op":"clear","stream":"room.lobby"}"#, nil),
      (ann, "ann", #"{"op":"publish","stream":"room.a.b","value":1}"#, "forbidden"),
      (ann, "ann", #"{"op":"subscribe","stream":"room.secret"}"#, "forbidden"),
      (ann, "ann", #"{"op":"subscribe","stream":"user.ann.>"}"#, nil),
      (ann, "ann", #"{"op":"subscribe","stream":"user.bob.>"}"#, "forbidden"),
      (ann, "ann", #"{"op":"subscribe","stream":"stats"}"#, nil),
      (ann, "ann", #"{"op":"list"}"#, nil),
      (bob, "bob", #"{"op":"publish","stream":"user.bob.inbox","value":1}"#, nil),
      (bob, "bob", "publish user.ann.inbox 1", "forbidden"),
      (bob, "bob", "clear user.bob.inbox", nil),
      (bob, "bob", #"{"op":"subscribe","stream":"stats"}"#, "forbidden"),
      (bob, "bob", #"{"op":"subscribe","stream":"user.*.inbox"}"#, nil),
      (bob, "bob", #"{"op":"subscribe","stream":"user.ann.inbox"}"#, "forbidden"),
      (bob, "bob", #"{"op":"list","stream":"room.*"}"#, nil),
      (cat, "cat", #"{"op":"list"}"#, "forbidden"),
      (cat, "cat", #"{"op":"subscribe","stream":"stats"}"#, nil),
      (cat, "cat", #"{"op":"subscribe","stream":"room.lobby"}"#, "forbidden"),
      (cat, "cat", #"{"op":"publish","stream":"news","value":1}"#, "forbidden"),
      (cat, "cat", #"{"op":"publish","stream":"a..b","value":1}"#, "bad_name"),
    ]
    for (client, user, line, expected) in cases {
      let reply = try client.request(line)
      XCTAssertEqual(errorCode(reply), expected, "\(user): \(line) -> \(reply)")
      // Whatever the answer, the connection goes on.
      XCTAssertEqual(try client.request("ping")["ok"] as? Bool, true, "\(user) after \(line)")
    }
    let forbidden = cases.filter { $0.3 == "forbidden" }.count
    XCTAssertEqual(try server.client(nil).stats()["forbidden_total"], forbidden)
    let metrics = try server.metrics()
    XCTAssertTrue(metrics.contains("observable_server_forbidden_total \(forbidden)"), metrics)
  }

  func testListShowsOnlyWhatTheUserMaySubscribeTo() throws {
    let server = try AuthorizedServer()
    let publisher = try server.client(nil)
    for topic in ["room.lobby", "room.secret", "user.ann.inbox", "user.bob.inbox", "news"] {
      try publisher.request(#"{"op":"publish","stream":"\#(topic)","value":1,"retain":true}"#)
    }
    func names(_ client: LineClient) throws -> Set<String> {
      let reply = try client.request(#"{"op":"list"}"#)
      let streams = reply["streams"] as? [[String: Any]] ?? []
      return Set(streams.compactMap { $0["name"] as? String })
    }
    XCTAssertEqual(
      try names(try server.client("ann")), ["room.lobby", "user.ann.inbox", "stats"])
    XCTAssertEqual(try names(try server.client("bob")), ["room.lobby", "user.bob.inbox"])
    XCTAssertTrue(try names(publisher).isSuperset(of: ["room.secret", "news", "clock"]))
  }

  func testAPartlyAllowedPatternDeliversOnlyTheAllowedTopics() throws {
    let server = try AuthorizedServer()
    let ann = try server.client("ann")
    let bob = try server.client("bob")
    XCTAssertNil(errorCode(try ann.request(#"{"op":"subscribe","stream":"room.>"}"#)))
    XCTAssertNil(errorCode(try bob.request(#"{"op":"subscribe","stream":"user.*.inbox"}"#)))
    let publisher = try server.client(nil)
    // One publisher: each subscriber sees its values in the order they were published, so a
    // denied topic published first would arrive first if it leaked.
    for topic in ["room.secret", "user.ann.inbox", "room.lobby", "user.cat.inbox", "room.a.b"] {
      try publisher.request(#"{"op":"publish","stream":"\#(topic)","value":"\#(topic)"}"#)
    }
    let annSeen = try (0..<2).map { _ in try ann.read(until: { $0["stream"] != nil }) }
    XCTAssertEqual(annSeen.map { $0["stream"] as? String }, ["room.lobby", "room.a.b"])
    let bobSeen = try bob.read(until: { $0["stream"] != nil })
    XCTAssertEqual(bobSeen["stream"] as? String, "user.cat.inbox")
    // Nothing more is on the way: a ping's reply comes next on both.
    XCTAssertEqual(try ann.request("ping")["ok"] as? Bool, true)
    XCTAssertTrue(ann.takeDeliveries().isEmpty)
    XCTAssertEqual(try bob.request("ping")["ok"] as? Bool, true)
    XCTAssertTrue(bob.takeDeliveries().isEmpty)
  }

  func testWrongCredentialsAreRefusedAndCloseTheConnection() throws {
    let server = try AuthorizedServer()
    for auth in [
      #"{"op":"auth","user":"ann","token":"\#(AuthorizedServer.tokens["bob"]!.token)"}"#,
      #"{"op":"auth","user":"dan","token":"x"}"#, "auth ann nope",
      #"{"op":"auth","token":"\#(AuthorizedServer.tokens["ann"]!.token)"}"#,
    ] {
      let client = try LineClient(port: server.port)
      XCTAssertEqual(errorCode(try client.request(auth)), "unauthorized", auth)
      XCTAssertTrue(client.waitForClose(), auth)
    }
    // The shorthand with a user works.
    let token = AuthorizedServer.tokens["bob"]!.token
    let bob = try LineClient(port: server.port)
    XCTAssertEqual(try bob.request("auth bob \(token)")["ok"] as? Bool, true)
    XCTAssertEqual(errorCode(try bob.request("subscribe stats")), "forbidden")
  }

  func testSharedTokenKeepsEveryPermission() throws {
    let server = try AuthorizedServer()
    let everyone = try server.client(nil)
    for line in [
      "publish room.locked 1", "retain room.secret 1", "clear room.secret", "subscribe stats",
      "subscribe >", "list",
    ] {
      XCTAssertNil(errorCode(try everyone.request(line)), line)
    }
  }

  func testBadFileAtStartExits64WithTheLine() throws {
    let path = "/tmp/os-auth-bad-\(getpid()).json"
    try "{\"users\": {\n  \"ann\": {\"token\": \"sha256:12\"}\n}}".write(
      toFile: path, atomically: true, encoding: .utf8)
    defer { unlink(path) }
    let port = try freeLoopbackPort()
    let server = try ServerProcess(arguments: [
      "--listen", "127.0.0.1:\(port)", "--auth-file", path,
    ])
    XCTAssertEqual(server.waitForExit(timeout: .seconds(20)), 64, server.output)
    XCTAssertTrue(server.output.contains("line 2"), server.output)
    XCTAssertFalse(server.output.contains("listening"), server.output)
  }
}
