import Glibc
import ObservableFraming
import TestSupport
import Testing

@testable import ObservableServer

/// SSE readers hold each value's event as one chunk made for all of them, beside the line
/// chunk that TCP subscribers of the same publish hold: every reader gets exactly its own
/// bytes, in order, when sends are cut short inside an event or a line, and every chunk is
/// released once written.
@Suite("Shared event chunks", .timeLimit(.minutes(2)))
struct SharedEventChunkTests {
  /// A receive buffer of a few KB: the server's sends to this socket are cut short until it
  /// reads, mostly in the middle of a value.
  static func shrinkReceiveBuffer(_ fd: Int32) {
    var small: Int32 = 4096
    setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &small, socklen_t(MemoryLayout<Int32>.size))
  }

  /// The delivery line of value `number` to `chunks`, as the server encodes it.
  static func deliveryLine(_ number: Int) -> String {
    let value = SharedChunkTests.value(number)
    let start = value.range(of: #""value":"#)!.lowerBound
    return #"{"stream":"chunks","# + value[start...] + "\n"
  }

  @Test(arguments: SharedChunkTests.batchings)
  func sseReadersAndATCPSubscriberOfOnePublishEachGetExactlyTheirBytes(
    batching: SendBatching
  ) throws {
    let server = try TestServer.withHTTP { $0.sendBatching = batching }
    defer { server.stop() }
    let stalledEvents = try EventStreamClient(server, query: "stream=chunks")
    Self.shrinkReceiveBuffer(stalledEvents.fd)
    let events = try EventStreamClient(server, query: "stream=chunks")
    let stalledLines = try SharedChunkTests.stalledSubscriber(on: server)
    defer {
      stalledEvents.close()
      events.close()
      stalledLines.close()
    }
    let publisher = try server.connect()
    defer { publisher.close() }
    #expect(
      eventually {
        (try? publisher.request(#"{"op":"list","stream":"chunks"}"#))
          .flatMap { ($0["streams"] as? [[String: Any]])?.first?["subscribers"] as? Int } == 3
      })
    let count = 200
    try SharedChunkTests.publish(count, through: publisher)
    let lines = (0..<count).map(Self.deliveryLine).joined()
    let expectedEvents =
      "retry: 3000\n\n"
      + String(decoding: ServerSentEvents.events(of: Array(lines.utf8)), as: UTF8.self)
    for (name, reader) in [("reader", events), ("stalled reader", stalledEvents)] {
      // The retry field's blank line, then one per event.
      #expect(reader.read(until: "\n\n", times: count + 1, timeout: .seconds(20)), "\(name)")
      let body = reader.text.split(separator: "\r\n\r\n", maxSplits: 1).last.map(String.init)
      #expect(body == expectedEvents, "\(name): \(body?.count ?? 0) of \(expectedEvents.count)")
    }
    // 400 KB did not fit the stalled TCP socket either: its lines are the shared chunks.
    var received = ""
    for _ in 0..<count { received += try stalledLines.readLine(timeout: .seconds(10)) + "\n" }
    #expect(received == lines)
    #expect(
      eventually { server.server.queuedOutput.chunkCensus.live == 0 },
      "\(server.server.queuedOutput.chunkCensus.live) chunks held")
  }
}
