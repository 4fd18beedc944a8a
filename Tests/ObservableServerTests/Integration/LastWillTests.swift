import Foundation
import TestSupport
import Testing

@testable import ObservableServer

/// The `will` and `bye` ops over real sockets: a will is published once when its connection
/// ends, never when it was withdrawn, the newest one replaces the older, and `retain` keeps it
/// for later subscribers.
@Suite("Last will", .timeLimit(.minutes(1)))
struct LastWillTests {
  @Test func aPlainClosePublishesTheWillOnce() throws {
    let server = try TestServer()
    let watcher = try WillWatcher(port: server.port, pattern: "status.>")
    let client = try server.connect()
    let reply = try client.request(
      #"{"op":"will","stream":"status.a","value":{"up":false},"id":7}"#)
    #expect(reply["ok"] as? Bool == true, "\(reply)")
    #expect(reply["op"] as? String == "will")
    #expect(reply["stream"] as? String == "status.a")
    #expect(reply["replaced"] as? Bool == false)
    #expect(reply["id"] as? Int == 7)
    client.close()
    let seen = watcher.wait(forCount: 1)
    #expect(seen.count == 1, "\(seen)")
    #expect((watcher.values(on: "status.a").first as? [String: Any])?["up"] as? Bool == false)
    #expect(server.server.counters.snapshot.willsPublishedTotal == 1)
    #expect(try server.stats()["wills_published_total"] as? Int == 1)
  }

  @Test func aResetPublishesTheWillOnce() throws {
    let server = try TestServer()
    let watcher = try WillWatcher(port: server.port, pattern: "status.b")
    let client = try server.connect()
    try client.request("will status.b gone")
    client.reset()
    #expect(watcher.wait(forCount: 1).count == 1)
    #expect(watcher.values(on: "status.b").first as? String == "gone")
  }

  @Test func aWithdrawnWillIsNeverPublished() throws {
    let server = try TestServer()
    let watcher = try WillWatcher(port: server.port, pattern: "status.>")
    let json = try server.connect()
    try json.request(#"{"op":"will","stream":"status.c","value":1}"#)
    let withdrawn = try json.request(#"{"op":"will","stream":"status.c","value":null}"#)
    #expect(withdrawn["withdrawn"] as? Bool == true, "\(withdrawn)")
    let again = try json.request(#"{"op":"will","stream":"status.c","value":null}"#)
    #expect(again["withdrawn"] as? Bool == false, "\(again)")
    json.close()
    let typed = try server.connect()
    try typed.request("will status.d 1")
    #expect(try typed.request("will status.d null")["withdrawn"] as? Bool == true)
    typed.reset()
    #expect(eventually { (try? server.stats()["connections"] as? Int) == 2 })
    // The probe's own connection is one of the two; the watcher's the other.
    #expect(watcher.wait(forCount: 1, timeout: .milliseconds(500)).isEmpty)
    #expect(server.server.counters.snapshot.willsPublishedTotal == 0)
  }

  @Test func byeWithdrawsTheWillAnswersAndClosesCleanly() throws {
    let server = try TestServer()
    let watcher = try WillWatcher(port: server.port, pattern: "status.e")
    let client = try server.connect()
    try client.request("retainwill status.e gone")
    // What follows `bye` in the same read is not handled.
    try client.send(#"{"op":"bye","id":"b"}"# + "\nping")
    #expect(client.waitForHangUp())
    let ending = client.readToEnd()
    #expect(ending.isOrderly, "error \(String(describing: ending.error))")
    let lines = ending.text.split(separator: "\n")
    #expect(lines.count == 1, "\(ending.text)")
    #expect(ending.text.contains(#""op":"bye""#) && ending.text.contains(#""id":"b""#))
    #expect(watcher.wait(forCount: 1, timeout: .milliseconds(500)).isEmpty)
    #expect(server.server.counters.snapshot.willsPublishedTotal == 0)
  }

  @Test func aNewWillReplacesTheOld() throws {
    let server = try TestServer()
    let watcher = try WillWatcher(port: server.port, pattern: "status.>")
    let client = try server.connect()
    try client.request("will status.f first")
    let reply = try client.request(#"{"op":"will","stream":"status.g","value":"second"}"#)
    #expect(reply["replaced"] as? Bool == true, "\(reply)")
    client.close()
    let seen = watcher.wait(forCount: 1)
    #expect(seen.count == 1, "\(seen)")
    #expect(seen.first?.stream == "status.g")
    #expect(seen.first?.value as? String == "second")
  }

  @Test func aRetainedWillReachesLaterSubscribers() throws {
    let server = try TestServer()
    let client = try server.connect()
    try client.request(#"{"op":"will","stream":"status.h","value":"offline","retain":true}"#)
    client.close()
    #expect(eventually { server.server.counters.snapshot.willsPublishedTotal == 1 })
    let later = try WillWatcher(port: server.port, pattern: "status.h")
    #expect(later.wait(forCount: 1).count == 1)
    #expect(later.values(on: "status.h").first as? String == "offline")
  }

  @Test func badWillsAreRefusedWithClearErrors() throws {
    let server = try TestServer { $0.maxLineBytes = 1024 }
    let client = try server.connect()
    func error(_ line: String) throws -> (code: String?, message: String?) {
      let reply = try client.request(line)
      #expect(reply["ok"] as? Bool == false, "\(reply)")
      let error = reply["error"] as? [String: Any]
      return (error?["code"] as? String, error?["message"] as? String)
    }
    let noStream = try error(#"{"op":"will","value":1}"#)
    #expect(noStream.code == "bad_request")
    #expect(noStream.message == #"will needs "stream""#)
    let noValue = try error(#"{"op":"will","stream":"s"}"#)
    #expect(noValue.code == "bad_request")
    #expect(noValue.message?.contains(#"will needs "value""#) == true)
    let notJSON = try error(#"{"op":"will","stream":"s","value":offline}"#)
    #expect(notJSON.code == "bad_request")
    #expect(notJSON.message?.contains("invalid JSON") == true)
    #expect(try error(#"{"op":"will","stream":"a..b","value":1}"#).code == "bad_name")
    #expect(try error(#"{"op":"will","stream":"a.*","value":1}"#).code == "bad_name")
    #expect(try error(#"{"op":"will","stream":"clock","value":1}"#).code == "read_only")
    #expect(
      try error(#"{"op":"will","stream":"s","value":1,"retain":"yes"}"#).code == "bad_request")
    #expect(try error("will s").message == "usage: will NAME VALUE")
    let big = String(repeating: "x", count: 2000)
    #expect(try error(#"{"op":"will","stream":"s","value":"\#(big)"}"#).code == "line_too_long")
    // None of these registered a will, and the connection still works.
    try client.request("will s kept")
    let watcher = try WillWatcher(port: server.port, pattern: "s")
    client.close()
    let seen = watcher.wait(forCount: 1)
    #expect(seen.map { $0.value as? String } == ["kept"], "\(seen)")
  }
}
