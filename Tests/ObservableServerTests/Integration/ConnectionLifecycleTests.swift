import Foundation
import Glibc
import Locking
import TestSupport
import Testing

@testable import ObservableServer

@Suite("Connections as observers", .timeLimit(.minutes(2)))
struct ConnectionLifecycleTests {
  @Test func abruptlyClosedClientsRunEveryDisconnectExactlyOnce() throws {
    let server = try TestServer()
    var clients: [LineClient] = []
    for index in 0..<500 {
      let client = try server.connect()
      try client.request("subscribe churn.\(index % 10)")
      try client.request("subscribe churn.>")
      if index % 50 == 0 { try client.request("subscribe clock") }
      clients.append(client)
    }
    let before = server.server.counters.snapshot
    #expect(before.subscriptions == 1010)
    for (index, client) in clients.enumerated() {
      if index % 2 == 0 { client.reset() } else { client.close() }
    }
    clients.removeAll()
    #expect(eventually(timeout: .seconds(10)) { server.server.connectionCount == 0 })

    // Seen through the protocol, as a user would: the stats subscriber is the only one left.
    let stats = try server.stats()
    #expect(stats["subscriptions"] as? Int == 1)
    #expect(stats["disconnects_total"] as? Int == (stats["subscribes_total"] as? Int ?? -1) - 1)
    #expect(eventually { server.server.connectionCount == 0 })
    let after = server.server.counters.snapshot
    #expect(after.subscriptions == 0)
    #expect(after.disconnectsTotal == after.subscribesTotal)
    #expect(after.subscribesTotal == 1011)
    // Nothing is left on the topics either.
    let client = try server.connect()
    let streams = try client.request("list")["streams"] as? [[String: Any]] ?? []
    #expect(!streams.isEmpty)
    #expect(streams.allSatisfy { $0["subscribers"] as? Int == 0 }, "\(streams)")
    #expect(!streams.contains { ($0["name"] as? String)?.hasPrefix("churn") == true })
  }

  @Test func slowConsumerIsClosedAtTheCapWhileAFastOneKeepsUp() throws {
    let cap = 256 * 1024
    let server = try TestServer { $0.maxQueuedBytes = cap }
    let slow = try server.connect()
    var small: Int32 = 4096
    setsockopt(slow.fd, SOL_SOCKET, SO_RCVBUF, &small, socklen_t(MemoryLayout<Int32>.size))
    try slow.request("subscribe firehose")
    let fast = try server.connect()
    try fast.request("subscribe firehose")
    let publisher = try server.connect()
    let payload = String(repeating: "v", count: 1000)
    let count = 10_000
    let received = FastReader()
    let reader = Thread {
      // Matching the line's text keeps the reader cheap; it stops at the first gap.
      while received.count < count, let line = try? fast.readLine(timeout: .seconds(20)) {
        guard line.hasPrefix(#"{"stream":"firehose","value":"\#(received.count):"#) else { break }
        received.advance()
      }
    }
    reader.start()
    for index in 0..<count {
      // At most 100 values (100 kB) ahead of the fast subscriber, far below the cap, however
      // busy the machine is; the slow one, which reads nothing, falls ever further behind.
      #expect(
        eventually(timeout: .seconds(20)) { received.count >= index - 100 },
        "fast stalled at \(index)")
      try publisher.send(#"{"op":"publish","stream":"firehose","value":"\#(index):\#(payload)"}"#)
      if index % 20 == 19 { for _ in 0..<20 { _ = try publisher.readReply() } }
    }
    #expect(
      eventually(timeout: .seconds(20)) {
        server.server.counters.snapshot.slowConsumersTotal == 1
      },
      "\(server.server.counters.snapshot) fast=\(received.count)")
    // Closed on the server's side; the notice is best effort, as the slow client's buffers are
    // full, and the kernel may take long to drain them to a client that hardly reads.
    #expect(eventually { server.server.connectionCount == 2 })
    let snapshot = server.server.counters.snapshot
    #expect(snapshot.droppedTotal > 0)
    #expect(eventually(timeout: .seconds(20)) { received.count == count })
  }
}

/// How many values the fast subscriber's reading thread has seen, in order.
private final class FastReader: Sendable {
  private let received = Locked(0)

  var count: Int { received.withLock { $0 } }

  func advance() { received.withLock { $0 += 1 } }
}
