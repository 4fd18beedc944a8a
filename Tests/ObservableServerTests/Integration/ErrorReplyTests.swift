import Foundation
import TestSupport
import Testing

@testable import ObservableServer
@testable import ObservableWire

@Suite("Error replies", .timeLimit(.minutes(1)))
struct ErrorReplyTests {
  /// Sends `line` and checks the reply is an error with `code`, carrying the op and id.
  private func expectError(
    _ client: LineClient, _ line: String, code: ErrorCode, op: String?, id: Int? = nil,
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let reply = try client.request(line)
    #expect(reply["ok"] as? Bool == false, sourceLocation: sourceLocation)
    let error = reply["error"] as? [String: Any]
    #expect(error?["code"] as? String == code.rawValue, "\(reply)", sourceLocation: sourceLocation)
    #expect((error?["message"] as? String)?.isEmpty == false, sourceLocation: sourceLocation)
    if let op {
      #expect(reply["op"] as? String == op, sourceLocation: sourceLocation)
    } else {
      #expect(reply["op"] is NSNull, "op should be null: \(reply)", sourceLocation: sourceLocation)
    }
    #expect(reply["id"] as? Int == id, sourceLocation: sourceLocation)
  }

  @Test func everyRequestErrorCodeAndTheConnectionStaysUsable() throws {
    let server = try TestServer()
    let client = try server.connect()
    try expectError(client, "{not json", code: .badRequest, op: nil)
    try expectError(client, #"{"op":5,"id":1}"#, code: .badRequest, op: nil, id: 1)
    try expectError(client, #"{"id":2}"#, code: .badRequest, op: nil, id: 2)
    try expectError(
      client, #"{"op":"publish","stream":"a","id":3}"#, code: .badRequest, op: "publish", id: 3)
    try expectError(client, #"{"op":"teleport","id":4}"#, code: .unknownOp, op: "teleport", id: 4)
    try expectError(client, "teleport now", code: .unknownOp, op: "teleport")
    try expectError(
      client, #"{"op":"subscribe","stream":"a b","id":5}"#, code: .badName, op: "subscribe", id: 5)
    try expectError(
      client, #"{"op":"publish","stream":"a.*","value":1}"#, code: .badName, op: "publish")
    try expectError(
      client, "subscribe " + String(repeating: "x", count: 256), code: .badName, op: "subscribe")
    try client.request("subscribe twice")
    try expectError(
      client, #"{"op":"subscribe","stream":"twice","id":6}"#, code: .alreadySubscribed,
      op: "subscribe", id: 6)
    try expectError(
      client, #"{"op":"unsubscribe","stream":"never","id":7}"#, code: .notSubscribed,
      op: "unsubscribe", id: 7)
    try expectError(
      client, #"{"op":"publish","stream":"clock","value":1,"id":8}"#, code: .readOnly,
      op: "publish", id: 8)
    try expectError(client, "publish stats 1", code: .readOnly, op: "publish")
    try expectError(
      client, #"{"op":"compress","algorithm":"gzip","id":9}"#, code: .unsupported, op: "compress",
      id: 9)
    #expect(try client.request("ping")["ok"] as? Bool == true)
  }

  @Test func lineTooLongIsReportedOnceAndTheRestOfTheLineSkipped() throws {
    let server = try TestServer { $0.maxLineBytes = 1024 }
    let client = try server.connect()
    // A long line whose tail would be a valid request if the server did not skip it.
    let long = String(repeating: "x", count: 4000) + #" {"op":"ping","id":99}"#
    try expectError(client, long, code: .lineTooLong, op: nil)
    let pong = try client.request(#"{"op":"ping","id":1}"#)
    #expect(pong["id"] as? Int == 1)
    // Exactly at the limit is still a line.
    let padded = #"{"op":"ping","id":2,"pad":""# + String(repeating: "p", count: 1024 - 29) + #""}"#
    #expect(padded.utf8.count == 1024)
    #expect(try client.request(padded)["id"] as? Int == 2)
  }

  @Test func tokenIsRequiredBeforeAnythingElse() throws {
    let server = try TestServer { $0.token = "s3cret" }
    let client = try server.connect()
    #expect(client.greeting["auth"] as? String == "required")
    try expectError(client, #"{"op":"ping","id":1}"#, code: .unauthorized, op: "ping", id: 1)
    try expectError(client, "subscribe clock", code: .unauthorized, op: "subscribe")
    // A wrong token ends the connection after its error line, so tokens cannot be tried in a
    // loop.
    try expectError(
      client, #"{"op":"auth","token":"s3cre","id":2}"#, code: .unauthorized, op: "auth", id: 2)
    #expect(client.waitForClose())
    let second = try server.connect()
    try expectError(
      second, #"{"op":"auth","token":"s3cret!","id":3}"#, code: .unauthorized, op: "auth", id: 3)
    #expect(second.waitForClose())
    let third = try server.connect()
    #expect(try third.request(#"{"op":"auth","token":"s3cret","id":4}"#)["ok"] as? Bool == true)
    #expect(try third.request("ping")["ok"] as? Bool == true)
    let shorthand = try server.connect()
    #expect(try shorthand.request("auth s3cret")["ok"] as? Bool == true)
  }

  @Test func connectionsBeyondTheLimitAreRefusedWithAnError() throws {
    let server = try TestServer { $0.maxConnections = 2 }
    let first = try server.connect()
    let second = try server.connect()
    let third = try server.connect(readGreeting: false)
    let refusal = try third.readJSON()
    #expect((refusal["error"] as? [String: Any])?["code"] as? String == "too_many_connections")
    #expect(third.waitForClose())
    #expect(try first.request("ping")["ok"] as? Bool == true)
    second.close()
    #expect(eventually { server.server.connectionCount == 1 })
    let fourth = try server.connect()
    #expect(try fourth.request("ping")["ok"] as? Bool == true)
  }
}
