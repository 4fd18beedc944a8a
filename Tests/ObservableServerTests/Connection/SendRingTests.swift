import Glibc
import TestSupport
import Testing

@testable import ObservableCounters
@testable import ObservablePOSIX
@testable import ObservableServer

/// The ring's results are what `send` gives on a non-blocking socket: a partial count when the
/// socket has less room than the bytes, `EAGAIN` when it has none, `EPIPE` once the peer is
/// gone; and a writer that took a partial count is asked again for the rest.
@Suite("Send ring", .timeLimit(.minutes(1)))
struct SendRingTests {
  static let ringAvailable = (try? SendRing(entries: 8, counters: ServerCounters())) != nil

  @Test(.enabled(if: RequiredTool.runs(ringAvailable)))
  func aSocketWithLittleRoomTakesPartOfTheBytesAndThenSaysItIsFull() throws {
    try RequiredTool.require(Self.ringAvailable, "io_uring")
    let counters = ServerCounters()
    let ring = try SendRing(entries: 8, counters: counters)
    let payload = (0..<16 * 1024).map { UInt8(truncatingIfNeeded: $0 * 7) }
    let writers = try (0..<2).map { _ in try SocketPairWriter(bytes: payload) }
    for writer in writers { ring.enqueue(writer) }
    ring.submitQueued()
    #expect(!ring.hasQueued)
    for writer in writers {
      #expect(writer.directWrites == 0)
      #expect(writer.outcomes.first?.hasPrefix("sent ") == true, "\(writer.outcomes)")
      #expect(writer.outcomes.last == "full", "\(writer.outcomes)")
      // Less than the whole went, and exactly what was counted arrived, in order.
      #expect(writer.offset > 0 && writer.offset < payload.count, "\(writer.outcomes)")
      #expect(writer.received() == Array(payload[..<writer.offset]))
    }
    let snapshot = counters.snapshot
    #expect(snapshot.sendBatchesTotal >= 1)
    #expect(snapshot.batchedSendsTotal >= 2)
  }

  @Test(.enabled(if: RequiredTool.runs(ringAvailable)))
  func aGonePeerIsAnErrorAndTheOtherWriterIsUnaffected() throws {
    try RequiredTool.require(Self.ringAvailable, "io_uring")
    let ring = try SendRing(entries: 8, counters: ServerCounters())
    let gone = try SocketPairWriter(bytes: Array("hello\n".utf8))
    let present = try SocketPairWriter(bytes: Array("world\n".utf8))
    close(gone.peer)
    gone.peer = -1
    ring.enqueue(gone)
    ring.enqueue(present)
    ring.submitQueued()
    #expect(gone.outcomes == ["error \(EPIPE)"])
    #expect(present.outcomes == ["sent 6"])
    #expect(present.received() == Array("world\n".utf8))
  }

  @Test(.enabled(if: RequiredTool.runs(ringAvailable)))
  func aSendOfAnySizeGoesThroughTheRing() throws {
    try RequiredTool.require(Self.ringAvailable, "io_uring")
    let ring = try SendRing(entries: 8, counters: ServerCounters())
    let large = try SocketPairWriter(bytes: [UInt8](repeating: 1, count: 1 << 20))
    let small = try SocketPairWriter(bytes: [1, 2, 3])
    ring.enqueue(large)
    ring.enqueue(small)
    ring.submitQueued()
    // Its first send went through the ring, whatever its size; once it is the only writer
    // left the ring hands it back to write directly, as it does any lone writer.
    #expect(large.outcomes.first?.hasPrefix("sent ") == true, "\(large.outcomes)")
    #expect(small.outcomes == ["sent 3"])
  }
}
