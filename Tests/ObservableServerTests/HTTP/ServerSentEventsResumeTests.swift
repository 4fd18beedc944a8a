import Foundation
import TestSupport
import Testing

@testable import ObservableServer

/// `/sse` with history: events carry positions as `id:`, and a reconnect that sends the last
/// one as `Last-Event-ID`, as `EventSource` does, resumes without a gap or a duplicate.
@Suite("Server-Sent Events resume", .timeLimit(.minutes(1)))
struct ServerSentEventsResumeTests {
  @Test func reconnectsWithLastEventIDMissNothingAndRepeatNothing() throws {
    let server = try TestServer.withHTTP { $0.historyPerTopic = 1_000 }
    defer { server.stop() }
    let publisher = try server.connect()
    defer { publisher.close() }
    var next = 0
    func publish(_ count: Int) throws {
      for _ in 0..<count {
        // Two topics under one pattern: positions order values across topics.
        try publisher.request(#"{"op":"publish","stream":"room.\#(next % 2)","value":\#(next)}"#)
        next += 1
      }
    }
    var seen: [Int] = []
    var lastID: String?
    for round in 0..<5 {
      let header = lastID.map { "Last-Event-ID: \($0)\r\n" } ?? ""
      let events = try EventStreamClient(server, query: "stream=room.*", headers: header)
      #expect(events.read(until: "\r\n\r\n"))
      if round == 0 {
        // A fresh stream sees only what is published once it has subscribed; a resumed one
        // also gets what history holds after its position, so it need not wait.
        #expect(eventually { server.server.counters.snapshot.subscriptions == 1 })
      }
      try publish(20)
      #expect(events.read(until: #""value":\#(next - 1),"#), "\(events.text.suffix(300))")
      let received = Self.events(in: events.text)
      #expect(received.allSatisfy { $0.id != nil }, "\(events.text.suffix(300))")
      seen += received.map(\.value)
      lastID = received.last?.id
      events.close()
      // Published while no stream is open: the next round's resume must bring these.
      try publish(10)
    }
    #expect(seen == Array(0..<(next - 10)), "\(seen)")
  }

  @Test func aResumeHistoryNoLongerReachesIsAGapEvent() throws {
    let server = try TestServer.withHTTP { $0.historyPerTopic = 2 }
    defer { server.stop() }
    let publisher = try server.connect()
    defer { publisher.close() }
    try publisher.request(#"{"op":"publish","stream":"t","value":0}"#)
    let first = try EventStreamClient(server, query: "stream=t")
    #expect(first.read(until: "\r\n\r\n"))
    #expect(
      eventually {
        (try? publisher.request(#"{"op":"publish","stream":"t","value":1}"#))?["receivers"]
          as? Int == 1
      })
    #expect(first.read(until: "data:"))
    let id = try #require(Self.events(in: first.text).last?.id)
    first.close()
    for value in 2..<10 {
      try publisher.request(#"{"op":"publish","stream":"t","value":\#(value)}"#)
    }
    let resumed = try EventStreamClient(
      server, query: "stream=t", headers: "Last-Event-ID: \(id)\r\n")
    defer { resumed.close() }
    #expect(resumed.read(until: #""value":9,"#), "\(resumed.text)")
    #expect(resumed.text.contains("event:gap\ndata:{\"ok\":true,\"op\":\"subscribe\""))
    #expect(Self.events(in: resumed.text).map(\.value) == [8, 9])
  }

  /// The value events in a stream's text, in order: each one's `id` and integer value.
  static func events(in text: String) -> [(id: String?, value: Int)] {
    text.components(separatedBy: "\n\n").compactMap { block in
      var id: String?
      var data: String?
      for line in block.split(separator: "\n") {
        if line.hasPrefix("id:") { id = String(line.dropFirst(3)) }
        if line.hasPrefix("data:") { data = String(line.dropFirst(5)) }
      }
      guard let data, let object = try? JSONSerialization.jsonObject(with: Data(data.utf8)),
        let value = (object as? [String: Any])?["value"] as? Int
      else { return nil }
      return (id, value)
    }
  }
}
