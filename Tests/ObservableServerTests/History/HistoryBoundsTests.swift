import Foundation
import TestSupport
import Testing

@testable import ObservableServer

/// What bounds the history: values per topic, age, and bytes for the whole server, each
/// counted in `stats`.
@Suite("Topic history bounds", .timeLimit(.minutes(1)))
struct HistoryBoundsTests {
  @Test func eachTopicKeepsItsLastValues() throws {
    let server = try TestServer.withHistory(3)
    defer { server.stop() }
    let client = try server.connect()
    for value in 1...10 { try client.request("publish h.a \(value)") }
    try client.request("publish h.b 1")
    #expect(try client.history("h.a").values.map { $0["value"] as? Int } == [8, 9, 10])
    let stats = try server.stats()
    #expect(stats["history_values"] as? Int == 4)
    #expect(stats["history_evicted_total"] as? Int == 7)
  }

  @Test func valuesOlderThanTheTimeToLiveAreForgotten() throws {
    let server = try TestServer.withHistory(100, ttl: .milliseconds(300))
    defer { server.stop() }
    let client = try server.connect()
    try client.request("publish h.a 1")
    #expect(try client.history("h.a").reply["count"] as? Int == 1)
    #expect(
      try eventually(timeout: .seconds(5)) { try client.history("h.a").reply["count"] as? Int == 0 }
    )
    let resumed = try server.connect()
    let reply = try resumed.request(#"{"op":"subscribe","stream":"h.a","since":"0000abcd-0"}"#)
    #expect(reply["recovered"] as? Bool == false)
    #expect(try server.stats()["history_values"] as? Int == 0)
  }

  @Test func expiredValuesAreGivenBackWithoutAnotherRequest() throws {
    // Nothing is published, resumed or read after the value: a timer has to forget it.
    let server = try TestServer.withHistory(100, ttl: .milliseconds(200))
    defer { server.stop() }
    let client = try server.connect()
    try client.request("publish h.quiet 1")
    #expect(try server.stats()["history_values"] as? Int == 1)
    #expect(
      try eventually(timeout: .seconds(10)) {
        let stats = try server.stats()
        return stats["history_values"] as? Int == 0 && stats["history_bytes"] as? Int == 0
      })
  }

  @Test func theByteLimitEvictsTheServersOldestValuesFirst() throws {
    // Each value of 100 bytes costs about 190 with its line and bookkeeping: 20 fit in 4000.
    let server = try TestServer.withHistory(1000, maxBytes: 4000)
    defer { server.stop() }
    let client = try server.connect()
    let payload = String(repeating: "x", count: 98)
    for _ in 0..<15 {
      try client.request(#"{"op":"publish","stream":"h.old","value":"\#(payload)"}"#)
    }
    for _ in 0..<15 {
      try client.request(#"{"op":"publish","stream":"h.new","value":"\#(payload)"}"#)
    }
    let old = try client.history("h.old").values.count
    let new = try client.history("h.new").values.count
    #expect(new == 15)
    #expect(old < 15 && old + new <= 21, "old \(old), new \(new)")
    let stats = try server.stats()
    #expect((stats["history_bytes"] as? Int ?? .max) <= 4000)
    #expect(stats["history_evicted_total"] as? Int == 30 - old - new)
    // A resume from before what was evicted says so.
    let reply = try client.request(#"{"op":"subscribe","stream":"h.old","since":"0000abcd-1"}"#)
    #expect(reply["recovered"] as? Bool == false)
  }
}
