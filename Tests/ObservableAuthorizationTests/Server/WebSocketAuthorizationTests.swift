import Foundation
import TestSupport
import XCTest

/// Users, rules and signed tokens over WebSocket (`/ws` on the HTTP port), as a browser meets
/// them: the same replies as over TCP, and `forbidden` leaves the connection usable.
final class WebSocketAuthorizationTests: XCTestCase {
  private func client(_ server: AuthorizedServer, _ user: String) throws -> WebSocketClient {
    let client = try WebSocketClient(port: server.httpPort)
    let token = AuthorizedServer.tokens[user]!.token
    let reply = try client.request(#"{"op":"auth","user":"\#(user)","token":"\#(token)"}"#)
    XCTAssertEqual(reply["ok"] as? Bool, true, "\(reply)")
    return client
  }

  func testTheRulesHoldOverWebSocket() throws {
    let server = try AuthorizedServer()
    let ann = try client(server, "ann")
    let bob = try client(server, "bob")
    let cases: [(WebSocketClient, String, String, String?)] = [
      (ann, "ann", #"{"op":"subscribe","stream":"room.lobby"}"#, nil),
      (ann, "ann", #"{"op":"subscribe","stream":"room.secret"}"#, "forbidden"),
      (ann, "ann", #"{"op":"publish","stream":"room.locked","value":1}"#, "forbidden"),
      (ann, "ann", #"{"op":"publish","stream":"room.lobby","value":1,"retain":true}"#, nil),
      (ann, "ann", #"{"op":"subscribe","stream":"stats"}"#, nil),
      (bob, "bob", #"{"op":"publish","stream":"room.lobby","value":1}"#, "forbidden"),
      (bob, "bob", #"{"op":"clear","stream":"room.lobby"}"#, "forbidden"),
      (bob, "bob", #"{"op":"subscribe","stream":"stats"}"#, "forbidden"),
      (bob, "bob", #"{"op":"subscribe","stream":"user.ann.inbox"}"#, "forbidden"),
      (bob, "bob", #"{"op":"publish","stream":"user.bob.x","value":1}"#, nil),
    ]
    for (client, user, line, expected) in cases {
      XCTAssertEqual(errorCode(try client.request(line)), expected, "\(user): \(line)")
    }
    // After all those refusals both connections still work.
    XCTAssertEqual(try bob.request(#"{"op":"ping"}"#)["ok"] as? Bool, true)
    let listed = try bob.request(#"{"op":"list"}"#)
    let names = (listed["streams"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
    XCTAssertTrue(names.contains("room.lobby"), "\(listed)")
    XCTAssertFalse(names.contains("stats"), "\(listed)")
  }

  func testAPatternAllowedInPartDeliversOnlyTheAllowedTopics() throws {
    let server = try AuthorizedServer()
    let ann = try client(server, "ann")
    XCTAssertNil(errorCode(try ann.request(#"{"op":"subscribe","stream":"room.>"}"#)))
    let publisher = try server.client(nil)
    for topic in ["room.secret", "room.lobby"] {
      XCTAssertNil(errorCode(try publisher.request("publish \(topic) 1")))
    }
    XCTAssertEqual(try ann.read(until: { $0["stream"] != nil })["stream"] as? String, "room.lobby")
  }

  func testASignedTokenOverWebSocket() async throws {
    let server = try AuthorizedServer()
    let web = try WebSocketClient(port: server.httpPort)
    let token = try await MintedToken.make(expiresIn: 600)
    XCTAssertEqual(try web.request(#"{"op":"auth","jwt":"\#(token)"}"#)["ok"] as? Bool, true)
    XCTAssertNil(errorCode(try web.request(#"{"op":"subscribe","stream":"room.lobby"}"#)))
    XCTAssertEqual(
      errorCode(try web.request(#"{"op":"publish","stream":"room.lobby","value":1}"#)),
      "forbidden")
    let forged = try WebSocketClient(port: server.httpPort)
    let wrongKey = try await MintedToken.make(
      expiresIn: 600, secret: Array(repeating: 0x61, count: 32))
    XCTAssertEqual(
      errorCode(try forged.request(#"{"op":"auth","jwt":"\#(wrongKey)"}"#)), "unauthorized")
  }
}
