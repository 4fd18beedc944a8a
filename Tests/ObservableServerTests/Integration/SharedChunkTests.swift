import Glibc
import TestSupport
import Testing

@testable import ObservableCounters
@testable import ObservablePOSIX
@testable import ObservableServer

/// Deliveries go out as the arrays every subscriber shares, gathered by `sendmsg` (or copied
/// once into the send ring's staging area), never copied into each outbox: values that span
/// many chunks still arrive whole and in order, a send cut short resumes inside its chunk, a
/// reset or a slow-consumer close in the middle of a broadcast leaves the others whole, and
/// every chunk reference is released once everything is written or dropped (the server's
/// chunk census, counted in debug builds, returns to zero).
@Suite("Shared delivery chunks", .timeLimit(.minutes(2)))
struct SharedChunkTests {
  static let batchings: [SendBatching] =
    SendBatchingTests.ringAvailable ? [.auto, .off] : [.off]

  /// A value of about 2 KB that says its number first.
  static func value(_ number: Int) -> String {
    #"{"op":"publish","stream":"chunks","value":"\#(number) \#(String(repeating: "c", count: 2000))"}"#
  }

  /// Publishes `count` values in pipelined bursts of 20, so each burst is read as a few chunks
  /// and consecutive values lie in different chunks; `halfway` runs after the first half.
  static func publish(_ count: Int, through publisher: LineClient, halfway: () -> Void = {})
    throws
  {
    for burst in stride(from: 0, to: count, by: 20) {
      if burst == count / 2 { halfway() }
      let values = burst..<min(burst + 20, count)
      for number in values { try publisher.send(value(number)) }
      for _ in values { _ = try publisher.readReply() }
    }
  }

  /// Reads `count` values and checks they are 0, 1, 2… in order.
  static func expectInOrder(_ count: Int, from reader: LineClient, _ name: String) throws {
    for number in 0..<count {
      let value = try reader.readJSON(timeout: .seconds(10))["value"] as? String
      #expect(value?.hasPrefix("\(number) ") == true, "\(name) at \(number)")
      guard value?.hasPrefix("\(number) ") == true else { return }
    }
  }

  /// A subscriber to `chunks` whose socket takes only a few KB until it reads.
  static func stalledSubscriber(on server: TestServer) throws -> LineClient {
    let stalled = try server.connect()
    var small: Int32 = 4096
    setsockopt(stalled.fd, SOL_SOCKET, SO_RCVBUF, &small, socklen_t(MemoryLayout<Int32>.size))
    try stalled.request("subscribe chunks")
    return stalled
  }

  static func census(_ server: TestServer) -> Int {
    server.server.queuedOutput.chunkCensus.live
  }

  @Test(arguments: batchings)
  func valuesAcrossManyChunksArriveInOrderAndEveryChunkIsReleased(batching: SendBatching)
    throws
  {
    let server = try TestServer { $0.sendBatching = batching }
    let stalled = try Self.stalledSubscriber(on: server)
    let readers = try (0..<3).map { _ in try server.connect() }
    for reader in readers { try reader.request("subscribe chunks") }
    let publisher = try server.connect()
    let count = 200
    try Self.publish(count, through: publisher)
    for (index, reader) in readers.enumerated() {
      try Self.expectInOrder(count, from: reader, "reader \(index)")
    }
    // 400 KB do not fit the stalled socket: its sends were cut short and the rest waits,
    // still the shared chunks.
    #if DEBUG
      #expect(Self.census(server) > 0)
    #endif
    ReceiveBuffer.growForDraining(stalled.fd)
    try Self.expectInOrder(count, from: stalled, "the stalled subscriber")
    #expect(eventually { Self.census(server) == 0 }, "\(Self.census(server)) chunks held")
  }

  @Test(arguments: batchings)
  func aResetInTheMiddleOfABroadcastLeavesTheOthersWholeAndReleasesItsChunks(
    batching: SendBatching
  ) throws {
    let server = try TestServer { $0.sendBatching = batching }
    let victim = try Self.stalledSubscriber(on: server)
    let readers = try (0..<3).map { _ in try server.connect() }
    for reader in readers { try reader.request("subscribe chunks") }
    let publisher = try server.connect()
    let count = 200
    try Self.publish(count, through: publisher, halfway: { victim.reset() })
    for (index, reader) in readers.enumerated() {
      try Self.expectInOrder(count, from: reader, "reader \(index)")
    }
    #expect(eventually { server.server.counters.snapshot.subscriptions == 3 })
    #expect(eventually { Self.census(server) == 0 }, "\(Self.census(server)) chunks held")
  }

  @Test(arguments: batchings)
  func aSlowConsumerClosedWhileItsChunksWaitReleasesThem(batching: SendBatching) throws {
    let server = try TestServer {
      $0.sendBatching = batching
      $0.maxQueuedBytes = 64 * 1024
    }
    let slow = try server.connect()
    var small: Int32 = 4096
    setsockopt(slow.fd, SOL_SOCKET, SO_RCVBUF, &small, socklen_t(MemoryLayout<Int32>.size))
    try slow.request("subscribe firehose")
    let publisher = try server.connect()
    try server.publishUntilSlowConsumer(publisher)
    #expect(eventually { server.server.counters.snapshot.slowConsumersTotal == 1 })
    ReceiveBuffer.growForDraining(slow.fd)
    #expect(slow.waitForClose(timeout: .seconds(10)))
    #expect(try publisher.request("ping")["ok"] as? Bool == true)
    #expect(eventually { Self.census(server) == 0 }, "\(Self.census(server)) chunks held")
  }
}
