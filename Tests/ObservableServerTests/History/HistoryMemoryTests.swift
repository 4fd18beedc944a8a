import Foundation
import TestSupport
import Testing

@testable import ObservableServer

/// History at its byte limit evicts its oldest values, and the server's memory stays bounded
/// however much passes through.
@Suite("History memory stays bounded", .serialized, .timeLimit(.minutes(3)))
struct HistoryMemoryTests {
  static let limit = 8 << 20

  @Test func historyAtItsByteLimitKeepsTheResidentSizeBounded() throws {
    let port = try freeLoopbackPort()
    let server = try ServerProcess(arguments: [
      "--listen", "127.0.0.1:\(port)", "--log-level", "error",
      "--history", "100000", "--max-history-bytes", "\(Self.limit)",
    ])
    try #require(eventually { (try? LineClient(port: port)) != nil })
    let client = try LineClient(port: port)
    let start = try #require(server.residentBytes)
    let payload = String(repeating: "v", count: 250)
    var rssAtLimit = 0
    // About 32 MiB of history passes through an 8 MiB limit, on 1000 topics.
    for batch in 0..<100 {
      let lines = (0..<1000).map {
        #"{"op":"publish","stream":"m.\#($0)","value":"\#(payload)"}"# + "\n"
      }.joined()
      try client.sendRaw(Array(lines.utf8))
      for _ in 0..<1000 { _ = try client.readReply(timeout: .seconds(20)) }
      if batch == 40 { rssAtLimit = try #require(server.residentBytes) }
    }
    let stats = try client.stats()
    #expect((stats["history_bytes"] ?? .max) <= Self.limit)
    #expect((stats["history_evicted_total"] ?? 0) > 50_000, "\(stats)")
    let end = try #require(server.residentBytes)
    #expect(end - start < 3 * Self.limit, "RSS grew \(end - start) bytes for \(Self.limit)")
    // Past the limit the history only replaces values: no further growth worth a limit.
    #expect(end - rssAtLimit < Self.limit, "RSS grew \(end - rssAtLimit) after the limit")
  }
}
