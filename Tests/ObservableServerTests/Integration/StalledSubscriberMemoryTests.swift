import Foundation
import TestSupport
import Testing

/// What a subscriber that never reads makes the server hold is about what its outbox limit
/// counts: the lines queued for it, not the loop's batch buffer they were built in.
///
/// A loop builds each read's publishes in one buffer that grows to 64 KiB and keeps that room.
/// Shared whole with every outbox, each small batch queued for a stalled subscriber held the
/// buffer's room for a few lines counted: 5,000 publishes of 100 bytes made the server's
/// resident size grow by 15 MiB for 0.5 MiB queued.
@Suite("A stalled subscriber holds what it is counted for", .serialized, .timeLimit(.minutes(2)))
struct StalledSubscriberMemoryTests {
  @Test func smallBatchesQueuedForAStalledSubscriberHoldTheirOwnSize() throws {
    let port = try freeLoopbackPort()
    let server = try ServerProcess(arguments: [
      "--listen", "127.0.0.1:\(port)", "--log-level", "error", "--threads", "1",
    ])
    try #require(eventually { (try? LineClient(port: port)) != nil })
    let stalled = try LineClient(port: port)
    ReceiveBuffer.shrink(stalled.fd)
    _ = try stalled.request(#"{"op":"subscribe","stream":"t"}"#)
    let publisher = try LineClient(port: port)
    let line = #"{"op":"publish","stream":"t","value":"\#(String(repeating: "x", count: 60))"}"#
    // One read of 900 publishes grows the loop's batch buffer to its 64 KiB.
    try publisher.sendRaw(Array(String(repeating: line + "\n", count: 900).utf8))
    for _ in 0..<900 { _ = try publisher.readReply() }
    let before = try #require(server.residentBytes)
    // Then publishes one read each (each waits for its reply), all queued for the stalled one.
    let publishes = 3000
    for _ in 0..<publishes { _ = try publisher.request(line) }
    let grown = try #require(server.residentBytes) - before
    let queued = publishes * (line.utf8.count - 13)
    let stats = try publisher.stats()
    #expect(stats["slow_consumers_total"] == 0, "the stalled subscriber stays")
    // Each line with its array's header and its place in the outbox is about twice its size;
    // the buffer's room would be 30 times.
    #expect(grown < 8 * queued, "RSS grew \(grown) bytes for \(queued) queued")
  }
}
