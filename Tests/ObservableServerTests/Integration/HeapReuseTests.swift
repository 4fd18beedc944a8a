import Foundation
import TestSupport
import Testing

/// A subscriber's queue that fills and empties again and again reuses the same memory.
///
/// With glibc's default, `free` gave an arena's top back to the kernel whenever 128 KiB of it
/// were free, so each time a reader caught up, the pages its queue had used went back, and the
/// next fill faulted them in again: one SSE reader of 3,000,000 values cost the server 9,000
/// to 50,000 page faults. The server leaves small releases in the heap and gives back large
/// ones itself (`HeapTrim`).
@Suite("A queue that fills and empties reuses its memory", .serialized, .timeLimit(.minutes(2)))
struct HeapReuseTests {
  @Test func refillingASubscribersQueueFaultsNoPagesBackIn() throws {
    let port = try freeLoopbackPort()
    let server = try ServerProcess(arguments: [
      "--listen", "127.0.0.1:\(port)", "--log-level", "error", "--threads", "1",
    ])
    try #require(eventually { (try? LineClient(port: port)) != nil })
    let reader = try LineClient(port: port)
    // Small enough that most of what waits for the reader waits in the server; larger than a
    // few KB, since each window update of a tiny buffer waits for a delayed ACK.
    ReceiveBuffer.set(reader.fd, to: 64 << 10)
    _ = try reader.request(#"{"op":"subscribe","stream":"t"}"#)
    let publisher = try LineClient(port: port)
    let line = #"{"op":"publish","stream":"t","value":"\#(String(repeating: "x", count: 80))"}"#
    // Small enough that the publisher's replies never wait long for it to read them.
    let burst = Array(String(repeating: line + "\n", count: 200).utf8)

    /// Queues `bursts` writes of 200 publishes for the reader, which reads none of them until
    /// all are queued, then everything.
    func fillAndEmpty(bursts: Int) throws {
      for _ in 0..<bursts {
        try publisher.sendRaw(burst)
        try publisher.skipLines(200)
      }
      try reader.skipLines(bursts * 200)
    }

    // The first fill takes the pages the queue needs, about 1 MiB.
    try fillAndEmpty(bursts: 40)
    let warm = try #require(server.minorFaults)
    try fillAndEmpty(bursts: 40)
    let firstRefill = try #require(server.minorFaults) - warm
    for _ in 0..<9 { try fillAndEmpty(bursts: 40) }
    let refills = try #require(server.minorFaults) - warm
    let stats = try publisher.stats()
    #expect(stats["slow_consumers_total"] == 0, "the reader stays")
    // Given back at each catch-up, the ten refills took about 1,400 pages again (with a release
    // build); kept, about 20.
    #expect(refills < 200, "10 refills faulted \(refills) pages (the first \(firstRefill))")
  }
}
