import Foundation
import TestSupport
import Testing

@testable import ObservableServer

/// Positions, resume and the `history` op over real sockets.
@Suite("Topic history: positions, resume, history op", .timeLimit(.minutes(1)))
struct HistoryProtocolTests {
  @Test func theGreetingListsHistoryOnlyWhenItIsOn() throws {
    let on = try TestServer.withHistory()
    defer { on.stop() }
    #expect(try on.connect().greeting["features"] as? [String] == ["sub", "history"])
    let off = try TestServer()
    defer { off.stop() }
    #expect(try off.connect().greeting["features"] as? [String] == ["sub"])
  }

  @Test func aSubscriberThatDoesNotAskSeesTodaysLinesByteForByte() throws {
    let server = try TestServer.withHistory()
    defer { server.stop() }
    let plain = try server.connect()
    try plain.request(#"{"op":"subscribe","stream":"h.a"}"#)
    try plain.request(#"{"op":"subscribe","stream":"h.*"}"#)
    let positioned = try server.connect()
    try positioned.request(#"{"op":"subscribe","stream":"h.a","pos":true}"#)
    let publisher = try server.connect()
    #expect(try publisher.request("publish h.a 1")["receivers"] as? Int == 3)
    let lines = try [plain.readLine(), plain.readLine()].sorted()
    #expect(lines == [#"{"stream":"h.a","sub":"h.*","value":1}"#, #"{"stream":"h.a","value":1}"#])
    #expect(try positioned.readLine() == #"{"stream":"h.a","value":1,"pos":"0000abcd-1"}"#)
  }

  @Test func everySubscriberOfAValueGetsTheSamePosition() throws {
    let server = try TestServer.withHistory()
    defer { server.stop() }
    let exact = try server.connect()
    try exact.request(#"{"op":"subscribe","stream":"h.a","pos":true}"#)
    let pattern = try server.connect()
    try pattern.request(#"{"op":"subscribe","stream":"h.>","pos":true}"#)
    let publisher = try server.connect()
    try publisher.request("publish h.b 0")
    try publisher.request(#"{"op":"publish","stream":"h.a","value":{"x":1}}"#)
    let first = try exact.readJSON()
    let both = try pattern.readValues(2)
    #expect(first["pos"] as? String == "0000abcd-2")
    #expect(both.map { $0["pos"] as? String } == ["0000abcd-1", "0000abcd-2"])
    #expect(both.last?["sub"] as? String == "h.>")
  }

  @Test func sinceReplaysWhatWasMissedThenLiveValues() throws {
    let server = try TestServer.withHistory()
    defer { server.stop() }
    let publisher = try server.connect()
    for value in 1...5 { try publisher.request("publish h.a \(value)") }
    try publisher.request("publish h.other 99")
    let resumed = try server.connect()
    let reply = try resumed.request(
      #"{"op":"subscribe","stream":"h.a","since":"0000abcd-2","id":7}"#)
    #expect(reply["recovered"] as? Bool == true)
    #expect(reply["id"] as? Int == 7)
    try publisher.request("publish h.a 6")
    let values = try resumed.readValues(4)
    #expect(values.map { $0["value"] as? Int } == [3, 4, 5, 6])
    #expect(
      values.map { $0["pos"] as? String } == (3...5).map { "0000abcd-\($0)" } + ["0000abcd-7"])
    // The shorthand names the position as a second word.
    let shorthand = try server.connect()
    #expect(try shorthand.request("sub h.* 0000abcd-5")["recovered"] as? Bool == true)
    #expect(try shorthand.readValues(2).map { $0["value"] as? Int } == [99, 6])
  }

  /// A subscriber cut off before any value arrived resumes from the reply's `pos`, and
  /// gets what was published while it was away; a resume's reply has no `pos`.
  @Test func theReplySaysWhereASubscriptionStartsSoAResumeBeforeAnyValueLosesNothing() throws {
    let server = try TestServer.withHistory()
    defer { server.stop() }
    let publisher = try server.connect()
    try publisher.request("publish h.a 1")
    try publisher.request("publish h.b 2")
    let first = try server.connect()
    let reply = try first.request(#"{"op":"subscribe","stream":"h.*","pos":true}"#)
    #expect(reply["pos"] as? String == "0000abcd-2")
    #expect(reply["recovered"] == nil)
    first.reset()
    try publisher.request("publish h.c 3")
    let resumed = try server.connect()
    let again = try resumed.request(#"{"op":"subscribe","stream":"h.*","since":"0000abcd-2"}"#)
    #expect(again["recovered"] as? Bool == true)
    #expect(again["pos"] == nil)
    let values = try resumed.readValues(1)
    #expect(values.map { $0["value"] as? Int } == [3])
    #expect(values.map { $0["pos"] as? String } == ["0000abcd-3"])
  }

  @Test func anotherEpochOrAPositionBeyondHistoryIsNotRecovered() throws {
    let server = try TestServer.withHistory(3)
    defer { server.stop() }
    let publisher = try server.connect()
    for value in 1...10 { try publisher.request("publish h.a \(value)") }
    let client = try server.connect()
    let reply = try client.request(#"{"op":"subscribe","stream":"h.a","since":"0000abcd-2"}"#)
    #expect(reply["recovered"] as? Bool == false)
    // What history still holds comes all the same, so the client knows where it stands.
    #expect(try client.readValues(3).map { $0["value"] as? Int } == [8, 9, 10])
    let other = try server.connect()
    let stale = try other.request(#"{"op":"subscribe","stream":"h.a","since":"12345678-9"}"#)
    #expect(stale["recovered"] as? Bool == false)
    #expect(try other.readValues(3).map { $0["value"] as? Int } == [8, 9, 10])
  }

  @Test func aMalformedSinceIsRefusedClearly() throws {
    let server = try TestServer.withHistory()
    defer { server.stop() }
    let client = try server.connect()
    for since in [#""yesterday""#, #""0000abcd-""#, #""abcd-1""#, #""0000ABCD-1""#, "5"] {
      let reply = try client.request(#"{"op":"subscribe","stream":"h.a","since":\#(since)}"#)
      #expect(errorCode(reply) == "bad_request", "\(since)")
      let message = (reply["error"] as? [String: Any])?["message"] as? String ?? ""
      #expect(message.contains("since"), "\(since): \(message)")
    }
    #expect(
      errorCode(try client.request(#"{"op":"subscribe","stream":"h.a","pos":1}"#)) == "bad_request")
    #expect(
      errorCode(try client.request(#"{"op":"history","stream":"h.a","limit":0}"#)) == "bad_request")
    #expect(
      errorCode(try client.request(#"{"op":"subscribe","stream":"clock","pos":true}"#))
        == "bad_request")
    // The connection is still usable.
    #expect(
      try client.request(#"{"op":"subscribe","stream":"h.a","pos":true}"#)["ok"] as? Bool == true)
  }

  @Test func withoutHistoryPositionsAndTheHistoryOpAreUnsupported() throws {
    let server = try TestServer()
    defer { server.stop() }
    let client = try server.connect()
    #expect(
      errorCode(try client.request(#"{"op":"subscribe","stream":"h.a","pos":true}"#))
        == "unsupported")
    #expect(errorCode(try client.request("history h.a")) == "unsupported")
  }

  @Test func theHistoryOpAnswersTheLastValuesOldestFirst() throws {
    let server = try TestServer.withHistory()
    defer { server.stop() }
    let publisher = try server.connect()
    for value in 1...4 {
      try publisher.request("publish h.a \(value)")
      try publisher.request("publish h.b \(value * 10)")
    }
    let client = try server.connect()
    let two = try client.history("h.a", limit: 2)
    #expect(two.values.map { $0["value"] as? Int } == [3, 4])
    #expect(two.values.map { $0["pos"] as? String } == ["0000abcd-5", "0000abcd-7"])
    #expect(two.reply["count"] as? Int == 2)
    let all = try client.history("h.*", limit: 3)
    #expect(all.values.map { $0["value"] as? Int } == [30, 4, 40])
    #expect(all.values.allSatisfy { $0["sub"] as? String == "h.*" })
    #expect(try client.request("history h.b 1")["count"] as? Int == 1)
    #expect(client.takeDeliveries().first?["value"] as? Int == 40)
    #expect(try client.history("h.none").reply["count"] as? Int == 0)
  }

  @Test func aRetainedValueComesWithItsPosition() throws {
    let server = try TestServer.withHistory()
    defer { server.stop() }
    let publisher = try server.connect()
    try publisher.request("publish h.x 0")
    try publisher.request("retain h.kept 1")
    let client = try server.connect()
    try client.request(#"{"op":"subscribe","stream":"h.kept","pos":true}"#)
    #expect(try client.readLine() == #"{"stream":"h.kept","value":1,"pos":"0000abcd-2"}"#)
    // A resume from before it replays it from history, once.
    let resumed = try server.connect()
    try resumed.request(#"{"op":"subscribe","stream":"h.*","since":"0000abcd-1"}"#)
    try publisher.request("publish h.x 2")
    #expect(try resumed.readValues(2).map { $0["value"] as? Int } == [1, 2])
  }
}
