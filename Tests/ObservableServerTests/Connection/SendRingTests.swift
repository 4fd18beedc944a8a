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

  /// A writer that sends `bytes` on one end of a socket pair and records each outcome.
  private final class RecordingWriter: RingWriter {
    init(bytes: [UInt8]) throws {
      var ends: [Int32] = [0, 0]
      guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &ends) == 0 else {
        throw SystemError(call: "socketpair", code: errno)
      }
      descriptor = ends[0]
      peer = ends[1]
      _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
      var small: Int32 = 4096
      setsockopt(descriptor, SOL_SOCKET, SO_SNDBUF, &small, socklen_t(MemoryLayout<Int32>.size))
      self.bytes = bytes
    }

    deinit {
      close(descriptor)
      if peer >= 0 { close(peer) }
    }

    let descriptor: Int32
    var peer: Int32
    var awaitingRing = false
    let bytes: [UInt8]
    var offset = 0
    var outcomes: [String] = []
    var sentDirectly = false

    func prepareWrite() -> Bool { offset < bytes.count }

    func withUnsentBytes<Value>(_ body: (UnsafeRawBufferPointer) -> Value) -> Value {
      bytes.withUnsafeBytes { body(UnsafeRawBufferPointer(rebasing: $0[offset...])) }
    }

    func wrote(_ outcome: Result<IOResult<Int>, SystemError>) -> Bool {
      switch outcome {
      case .success(.done(let count)):
        outcomes.append("sent \(count)")
        offset += count
        return true
      case .success(.wouldBlock):
        outcomes.append("full")
        return false
      case .failure(let error):
        outcomes.append("error \(error.code)")
        return false
      }
    }

    func writeNow() { sentDirectly = true }

    /// What the peer end has received so far.
    func received() -> [UInt8] {
      var all: [UInt8] = []
      var chunk = [UInt8](repeating: 0, count: 65536)
      while true {
        let count = recv(peer, &chunk, chunk.count, Int32(MSG_DONTWAIT))
        guard count > 0 else { return all }
        all += chunk[..<count]
      }
    }
  }

  @Test(.enabled(if: RequiredTool.runs(ringAvailable)))
  func aSocketWithLittleRoomTakesPartOfTheBytesAndThenSaysItIsFull() throws {
    try RequiredTool.require(Self.ringAvailable, "io_uring")
    let counters = ServerCounters()
    let ring = try SendRing(entries: 8, counters: counters)
    let payload = (0..<SendRing.largestBatchedSend).map { UInt8(truncatingIfNeeded: $0 * 7) }
    let writers = try (0..<2).map { _ in try RecordingWriter(bytes: payload) }
    for writer in writers { ring.enqueue(writer) }
    ring.submitQueued()
    #expect(!ring.hasQueued)
    for writer in writers {
      #expect(!writer.sentDirectly)
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
    let gone = try RecordingWriter(bytes: Array("hello\n".utf8))
    let present = try RecordingWriter(bytes: Array("world\n".utf8))
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
  func moreThanABatchHoldsGoesOutBySendDirectly() throws {
    try RequiredTool.require(Self.ringAvailable, "io_uring")
    let ring = try SendRing(entries: 8, counters: ServerCounters())
    let large = try RecordingWriter(
      bytes: [UInt8](repeating: 1, count: SendRing.largestBatchedSend + 1))
    let small = try RecordingWriter(bytes: [1, 2, 3])
    ring.enqueue(large)
    ring.enqueue(small)
    ring.submitQueued()
    #expect(large.sentDirectly)
    #expect(large.outcomes.isEmpty)
    #expect(small.outcomes == ["sent 3"])
  }
}
