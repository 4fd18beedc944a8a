import Testing

@testable import ObservableFraming
@testable import ObservableHTTP

/// The pieces of `/sse` without a server: the query, the opening requests, the event encoder.
@Suite("Server-Sent Events encoding")
struct ServerSentEventsEncodingTests {
  @Test func theQueryDecodesEscapesAndRepeats() {
    let query = HTTPQuery("stream=a.%3E&stream=b+c&token=x%2By&empty&bad=%zz")
    #expect(query.values("stream") == ["a.>", "b c"])
    #expect(query.first("token") == "x+y")
    #expect(query.first("empty") == "")
    #expect(query.first("bad") == "%zz")
    #expect(HTTPQuery(nil).fields.isEmpty)
  }

  @Test func lastEventIDBecomesSinceOnEverySubscribe() {
    let lines = ServerSentEventsRequest(
      streams: ["a", "b.*"], credential: .token(user: nil, "t\"k"), lastEventID: "7-42",
      positions: true
    ).lines.map { String(decoding: $0, as: UTF8.self) }
    #expect(
      lines == [
        #"{"op":"auth","token":"t\"k"}"# + "\n",
        #"{"op":"subscribe","stream":"a","since":"7-42"}"# + "\n",
        #"{"op":"subscribe","stream":"b.*","since":"7-42"}"# + "\n",
      ])
    let fresh = ServerSentEventsRequest(
      streams: ["a"], credential: nil, lastEventID: nil, positions: true
    ).lines
    #expect(
      fresh.map { String(decoding: $0, as: UTF8.self) } == [
        #"{"op":"subscribe","stream":"a","pos":true}"# + "\n"
      ])
    // Without history there are no positions to ask for or resume from.
    let plain = ServerSentEventsRequest(
      streams: ["a"], credential: .signed("h.p.s"), lastEventID: "7-42"
    ).lines
    #expect(
      plain.map { String(decoding: $0, as: UTF8.self) } == [
        #"{"op":"auth","jwt":"h.p.s"}"# + "\n", #"{"op":"subscribe","stream":"a"}"# + "\n",
      ])
    let user = ServerSentEventsRequest(
      streams: [], credential: .token(user: "ann", "t"), lastEventID: nil
    ).lines
    #expect(
      user.map { String(decoding: $0, as: UTF8.self) } == [
        #"{"op":"auth","user":"ann","token":"t"}"# + "\n"
      ])
  }

  @Test func aPositionBecomesTheEventsIDAndAnUnrecoveredResumeAGap() {
    let lines =
      #"{"stream":"a","value":{"pos":"x"},"pos":"5f3a09c2-1042"}"# + "\n"
      + #"{"stream":"b","value":"ends in \",\"pos\":\"1-2\""}"# + "\n"
      + #"{"ok":true,"op":"subscribe","stream":"a","recovered":false}"# + "\n"
      + #"{"ok":true,"op":"subscribe","stream":"c","recovered":true}"# + "\n"
    #expect(
      String(decoding: ServerSentEvents.events(of: Array(lines.utf8)), as: UTF8.self)
        == "event:a\nid:5f3a09c2-1042\n"
        + "data:{\"stream\":\"a\",\"value\":{\"pos\":\"x\"},\"pos\":\"5f3a09c2-1042\"}\n\n"
        + "event:b\ndata:{\"stream\":\"b\",\"value\":\"ends in \\\",\\\"pos\\\":\\\"1-2\\\"\"}\n\n"
        + "event:gap\n"
        + "data:{\"ok\":true,\"op\":\"subscribe\",\"stream\":\"a\",\"recovered\":false}\n\n")
  }

  @Test func deliveriesAndErrorsBecomeEventsAndOtherRepliesVanish() {
    let lines =
      #"{"hello":"observable-server"}"# + "\n" + #"{"ok":true,"op":"subscribe"}"# + "\n"
      + #"{"stream":"a.b","sub":"a.*","value":1}"# + "\n" + #"{"stream":"c","value":"x"}"# + "\n"
      + #"{"ok":false,"op":"subscribe","error":{"code":"bad_name"}}"# + "\n"
    #expect(
      String(decoding: ServerSentEvents.events(of: Array(lines.utf8)), as: UTF8.self)
        == "event:a.b\ndata:{\"stream\":\"a.b\",\"sub\":\"a.*\",\"value\":1}\n\n"
        + "event:c\ndata:{\"stream\":\"c\",\"value\":\"x\"}\n\n"
        + "event:error\ndata:{\"ok\":false,\"op\":\"subscribe\",\"error\":{\"code\":\"bad_name\"}}\n\n"
    )
  }

  @Test func eventsWrittenThroughAScratchMatchAndReuseIt() {
    let lines = Array(
      (#"{"stream":"a","value":"\#(String(repeating: "x", count: 300))"}"# + "\n"
        + #"{"ok":true,"op":"subscribe"}"# + "\n" + #"{"stream":"b.c","value":[1,\#r2]}"#
        + "\n").utf8)
    let expected = ServerSentEvents.events(of: lines, ids: false)
    // Too small at first, so it grows; then full of an earlier value's bytes.
    var scratch = [UInt8](repeating: 0x41, count: 8)
    for _ in 0..<3 {
      let end = lines.withUnsafeBytes {
        ServerSentEvents.write(lines: $0, ids: false, into: &scratch, at: 0)
      }
      #expect(Array(scratch[..<end]) == expected)
    }
    #expect(scratch.count >= expected.count)
  }

  @Test func eventsAppendedKeepWhatTheBufferHeld() {
    let lines = Array(
      (#"{"stream":"a","value":1}"# + "\n"
        + #"{"stream":"b","value":"\#(String(repeating: "y", count: 100))"}"#
        + "\n").utf8)
    var out = Array("earlier".utf8)
    lines.withUnsafeBytes { ServerSentEvents.append(lines: $0, ids: false, to: &out) }
    #expect(out == Array("earlier".utf8) + ServerSentEvents.events(of: lines, ids: false))
    #expect(
      String(decoding: out, as: UTF8.self)
        == "earlierevent:a\ndata:{\"stream\":\"a\",\"value\":1}\n\nevent:b\ndata:"
        + #"{"stream":"b","value":"\#(String(repeating: "y", count: 100))"}"# + "\n\n")
  }

  @Test func eachLineOfABatchKeepsItsOwnNameAndLosesItsCarriageReturns() {
    // Names that begin with the line before's name, or are its start; a carriage return in
    // one line only, which no other line's data may lose bytes for.
    let names = ["a", "ab", "a", "b.c", "b.c", "b", "xy"]
    let lines = names.enumerated().map { index, name in
      #"{"stream":"\#(name)","value":"#
        + (index == 4 ? "[1,\r2]" : #""\#(name)\"""#) + "}\n"
    }.joined()
    let expected = names.enumerated().map { index, name in
      "event:\(name)\ndata:{\"stream\":\"\(name)\",\"value\":"
        + (index == 4 ? "[1, 2]" : #""\#(name)\"""#) + "}\n\n"
    }.joined()
    #expect(
      String(decoding: ServerSentEvents.events(of: Array(lines.utf8), ids: false), as: UTF8.self)
        == expected)
  }

  @Test func theShortestLinesFitTheRoomMadeOnceForABatch() {
    // The events longest beside their lines: error replies (the shortest event lines, 31
    // bytes of event for 13 of line) and a delivery whose name and position are most of it,
    // the last line without its line feed. The writer makes room once and writes without
    // checks, so all must fit.
    let delivery = #"{"stream":"abc","pos":"12"}"#
    let lines = Array(
      (String(repeating: #"{"ok":false}"# + "\n", count: 100) + delivery + "\n" + delivery).utf8)
    let event = "event:abc\nid:12\ndata:\(delivery)\n\n"
    let expected =
      String(repeating: "event:error\ndata:{\"ok\":false}\n\n", count: 100) + event + event
    var scratch: [UInt8] = []
    let end = lines.withUnsafeBytes {
      ServerSentEvents.write(lines: $0, ids: true, into: &scratch, at: 0)
    }
    #expect(String(decoding: scratch[..<end], as: UTF8.self) == expected)
    #expect(end <= ServerSentEvents.room(for: lines.count))
  }

  @Test func aHugeValueGrowsTheBufferOnlyByItsEvent() {
    // Its room would pass 1 MiB: the events are written growing the buffer as they come.
    let value = String(repeating: "z", count: 400_000)
    let lines = Array((#"{"stream":"big","value":"\#(value)"}"# + "\n").utf8)
    var scratch: [UInt8] = []
    let end = lines.withUnsafeBytes {
      ServerSentEvents.write(lines: $0, ids: false, into: &scratch, at: 0)
    }
    #expect(
      String(decoding: scratch[..<end], as: UTF8.self)
        == "event:big\ndata:{\"stream\":\"big\",\"value\":\"\(value)\"}\n\n")
    #expect(scratch.count < ServerSentEvents.room(for: lines.count))
  }
}
