import Foundation
import TestSupport
import Testing

@testable import ObservableServer
@testable import ObservableWire

/// `list` answers in pages, so a reply never passes what may wait for a client, however many
/// topics there are.
@Suite("list in pages", .timeLimit(.minutes(2)))
struct ListPagingTests {
  /// Retains a value on `count` topics `t.00000`…, pipelined.
  private static func makeTopics(_ count: Int, on client: LineClient) throws {
    for start in stride(from: 0, to: count, by: 500) {
      let batch = (start..<min(start + 500, count)).map {
        "retain t.\(String(format: "%05d", $0)) 1\n"
      }
      try client.sendRaw(Array(batch.joined().utf8))
      for _ in batch { _ = try client.readReply() }
    }
  }

  private static func names(_ reply: [String: Any]) -> [String] {
    (reply["streams"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
  }

  @Test func pagesCoverEveryStreamOnceInOrder() throws {
    let server = try TestServer()
    let client = try server.connect()
    try Self.makeTopics(2_500, on: client)
    var seen: [String] = []
    var request = #"{"op":"list"}"#
    var pages = 0
    while true {
      let reply = try client.request(request)
      let page = Self.names(reply)
      #expect(page.count <= StreamListEncoder.pageSize)
      seen += page
      pages += 1
      guard let next = reply["next"] as? String else { break }
      #expect(next == page.last)
      request = #"{"op":"list","after":"\#(next)"}"#
    }
    let topics = (0..<2_500).map { "t.\(String(format: "%05d", $0))" }
    #expect(pages == 3)
    #expect(seen == ["clock", "stats"] + topics)
    // Shorthand, with a filter and a place to start.
    let tail = try client.request("list t.* t.02399")
    #expect(Self.names(tail) == Array(topics[2_400...]))
    #expect(tail["next"] == nil)
  }

  @Test func aReadingClientIsNeverClosedForAHugeList() throws {
    // 20,000 topics list to about 1 MB, five times what may wait for this client.
    let server = try TestServer { $0.maxQueuedBytes = 200_000 }
    let client = try server.connect()
    try Self.makeTopics(20_000, on: client)
    var count = 0
    var after: String?
    repeat {
      let request = after.map { #"{"op":"list","after":"\#($0)"}"# } ?? #"{"op":"list"}"#
      let reply = try client.request(request, timeout: .seconds(20))
      count += Self.names(reply).count
      after = reply["next"] as? String
    } while after != nil
    #expect(count == 20_002)
    #expect(server.server.counters.snapshot.slowConsumersTotal == 0)
  }
}
