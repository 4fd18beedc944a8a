import Foundation
import TestSupport
import XCTest

/// Users and signed tokens on `/sse`: the credential is checked before the stream starts (a
/// `401` otherwise), and the stream then receives only what its user may.
final class ServerSentEventsAuthorizationTests: XCTestCase {
  /// Opens `/sse?QUERY` with `headers`; returns the socket and what it read until `until`.
  private func open(
    _ server: AuthorizedServer, _ query: String, headers: String = "", until: String
  ) throws -> (LineClient, String) {
    let client = try LineClient(port: server.httpPort, readGreeting: false)
    try client.sendRaw(
      Array("GET /sse?\(query) HTTP/1.1\r\nHost: localhost\r\n\(headers)\r\n".utf8))
    var text = ""
    _ = eventually(timeout: .seconds(5)) {
      if let more = try? client.readAvailable(timeout: .milliseconds(200)) {
        text += String(decoding: more, as: UTF8.self)
      }
      return text.contains(until)
    }
    return (client, text)
  }

  func testAFileUserReceivesOnlyWhatTheRulesAllow() throws {
    let server = try AuthorizedServer()
    let token = AuthorizedServer.tokens["ann"]!.token
    let (events, head) = try open(
      server, "stream=room.%3E&user=ann&token=\(token)", until: "\r\n\r\n")
    defer { events.close() }
    XCTAssertTrue(head.hasPrefix("HTTP/1.1 200 OK\r\n"), head)
    let publisher = try server.client(nil)
    var text = head
    // `room.>` is allowed to ann only in part: room.secret never reaches her.
    XCTAssertTrue(
      eventually(timeout: .seconds(5)) {
        _ = try? publisher.request("publish room.secret 1")
        _ = try? publisher.request("publish room.lobby 2")
        if let more = try? events.readAvailable(timeout: .milliseconds(200)) {
          text += String(decoding: more, as: UTF8.self)
        }
        return text.contains("event:room.lobby\n")
      }, text)
    XCTAssertFalse(text.contains("room.secret"), text)
    XCTAssertFalse(text.contains(token), "the token is never echoed")
  }

  func testAWrongCredentialIsRefusedBeforeTheStream() throws {
    let server = try AuthorizedServer()
    let (wrong, text) = try open(server, "stream=room.lobby&user=ann&token=nope", until: "\r\n\r\n")
    defer { wrong.close() }
    XCTAssertTrue(text.hasPrefix("HTTP/1.1 401 "), text)
    let (none, missing) = try open(server, "stream=room.lobby", until: "\r\n\r\n")
    defer { none.close() }
    XCTAssertTrue(missing.hasPrefix("HTTP/1.1 401 "), missing)
  }

  func testASignedTokenAsABearer() async throws {
    let server = try AuthorizedServer()
    let jwt = try await MintedToken.make(expiresIn: 600)
    let (events, head) = try open(
      server, "stream=room.lobby", headers: "Authorization: Bearer \(jwt)\r\n", until: "\r\n\r\n")
    defer { events.close() }
    XCTAssertTrue(head.hasPrefix("HTTP/1.1 200 OK\r\n"), head)
    let expired = try await MintedToken.make(expiresIn: -600)
    let (refused, text) = try open(
      server, "stream=room.lobby", headers: "Authorization: Bearer \(expired)\r\n",
      until: "\r\n\r\n")
    defer { refused.close() }
    XCTAssertTrue(text.hasPrefix("HTTP/1.1 401 "), text)
  }
}
