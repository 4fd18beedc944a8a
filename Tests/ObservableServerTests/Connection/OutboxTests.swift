import Dispatch
import TestSupport
import Testing

@testable import ObservableServer
@testable import ObservableTransport
@testable import ObservableWire

/// The outbox protocol: the first append asks for a flush, later ones queue until the writer
/// finishes a flush with nothing left; past the cap one append overflows and the rest are refused.
@Suite(.timeLimit(.minutes(1)))
struct OutboxTests {
  @Test("the first append needs a flush, later ones queue until the flush finishes")
  func flushProtocol() {
    let outbox = Outbox(limit: 1_000)
    #expect(Self.append("ab", to: outbox) == .needsFlush)
    #expect(Self.append("cd", to: outbox) == .queued)
    #expect(Self.append("e", to: outbox) == .queued)
    #expect(outbox.hasPending)
    var spare: [UInt8] = []
    outbox.take(replacingWith: &spare, inFlight: 0)
    #expect(spare == Array("abcde".utf8))
    #expect(!outbox.hasPending)
    // Still flushing: appends queue until the writer says it is idle.
    #expect(Self.append("f", to: outbox) == .queued)
    #expect(outbox.finishFlushIfIdle(inFlight: 0) == false)
    outbox.take(replacingWith: &spare, inFlight: 0)
    #expect(spare == Array("f".utf8))
    #expect(outbox.finishFlushIfIdle(inFlight: 0))
    #expect(Self.append("g", to: outbox) == .needsFlush)
  }

  @Test("a flush does not finish while the writer still holds bytes")
  func inFlightKeepsFlushing() {
    let outbox = Outbox(limit: 1_000)
    #expect(Self.append("abc", to: outbox) == .needsFlush)
    var spare: [UInt8] = []
    outbox.take(replacingWith: &spare, inFlight: 0)
    #expect(outbox.finishFlushIfIdle(inFlight: 2) == false)
    #expect(Self.append("d", to: outbox) == .queued)
    outbox.take(replacingWith: &spare, inFlight: 2)
    #expect(spare == Array("d".utf8))
    #expect(outbox.finishFlushIfIdle(inFlight: 1) == false)
    #expect(outbox.finishFlushIfIdle(inFlight: 0))
    #expect(Self.append("e", to: outbox) == .needsFlush)
  }

  @Test("take empties the spare it is given and hands out only what was pending")
  func takeUsesSpare() {
    let outbox = Outbox(limit: 1_000)
    var spare: [UInt8] = [9, 9, 9]
    outbox.take(replacingWith: &spare, inFlight: 0)
    #expect(spare.isEmpty)
    _ = Self.append("12", to: outbox)
    spare = [7, 7]
    outbox.take(replacingWith: &spare, inFlight: 0)
    #expect(spare == Array("12".utf8))
    // The old spare, now the pending buffer, must not bring its old bytes back.
    _ = Self.append("3", to: outbox)
    var other: [UInt8] = [8]
    outbox.take(replacingWith: &other, inFlight: 0)
    #expect(other == Array("3".utf8))
  }

  @Test(
    "reaching the cap exactly is fine; one byte more overflows once, then everything is refused")
  func cap() {
    let outbox = Outbox(limit: 10)
    #expect(Self.append("1234", to: outbox) == .needsFlush)
    #expect(Self.append("567890", to: outbox) == .queued)
    #expect(Self.append("x", to: outbox) == .overflowed)
    #expect(Self.append("y", to: outbox) == .refused)
    #expect(Self.append("", to: outbox) == .refused)
    #expect(!outbox.hasPending)
    var spare: [UInt8] = []
    outbox.take(replacingWith: &spare, inFlight: 0)
    #expect(spare.isEmpty)
  }

  @Test("one append larger than the cap overflows at once")
  func oversizedAppend() {
    let outbox = Outbox(limit: 4)
    #expect(Self.append("12345", to: outbox) == .overflowed)
    #expect(Self.append("1", to: outbox) == .refused)
  }

  @Test("bytes taken but not yet written count against the cap")
  func takenBytesCount() {
    let outbox = Outbox(limit: 10)
    _ = Self.append("123456", to: outbox)
    var spare: [UInt8] = []
    outbox.take(replacingWith: &spare, inFlight: 0)
    #expect(Self.append("abcd", to: outbox) == .queued)
    #expect(Self.append("e", to: outbox) == .overflowed)
  }

  @Test("the writer's earlier unwritten bytes, passed to take, count against the cap")
  func inFlightPassedToTake() {
    let outbox = Outbox(limit: 10)
    _ = Self.append("12345", to: outbox)
    var spare: [UInt8] = []
    outbox.take(replacingWith: &spare, inFlight: 2)
    #expect(Self.append("abc", to: outbox) == .queued)
    #expect(Self.append("d", to: outbox) == .overflowed)
  }

  @Test("what finishFlushIfIdle says is in flight counts against the cap")
  func inFlightFromFinish() {
    let outbox = Outbox(limit: 10)
    _ = Self.append("12345678", to: outbox)
    var spare: [UInt8] = []
    outbox.take(replacingWith: &spare, inFlight: 0)
    #expect(outbox.finishFlushIfIdle(inFlight: 3) == false)
    #expect(Self.append("abcdefg", to: outbox) == .queued)
    #expect(Self.append("h", to: outbox) == .overflowed)
  }

  @Test("once everything is written the whole cap is free again")
  func capFreedAfterWrite() {
    let outbox = Outbox(limit: 10)
    #expect(Self.append("0123456789", to: outbox) == .needsFlush)
    var spare: [UInt8] = []
    outbox.take(replacingWith: &spare, inFlight: 0)
    #expect(outbox.finishFlushIfIdle(inFlight: 0))
    #expect(Self.append("0123456789", to: outbox) == .needsFlush)
  }

  @Test("close drops what is pending and refuses every later append")
  func close() {
    let fresh = Outbox(limit: 100)
    fresh.close()
    #expect(Self.append("a", to: fresh) == .refused)

    let busy = Outbox(limit: 100)
    _ = Self.append("abc", to: busy)
    busy.close()
    #expect(!busy.hasPending)
    #expect(Self.append("d", to: busy) == .refused)

    let overflowed = Outbox(limit: 1)
    #expect(Self.append("ab", to: overflowed) == .overflowed)
    overflowed.close()
    #expect(Self.append("a", to: overflowed) == .refused)
  }

  static func append(_ text: String, to outbox: Outbox) -> Outbox.AppendOutcome {
    outbox.append(Array(text.utf8))
  }
}
