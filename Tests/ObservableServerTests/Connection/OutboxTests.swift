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

  @Test("with many threads appending past the cap, exactly one append overflows")
  func concurrentOverflowOnce() {
    let outbox = Outbox(limit: 1_000)
    let outcomes = LockedValue([Outbox.AppendOutcome]())
    let appenders: [@Sendable () -> Void] = (0..<8).map { _ in
      {
        var mine: [Outbox.AppendOutcome] = []
        for _ in 0..<200 { mine.append(Self.append("0123456789", to: outbox)) }
        outcomes.withLock { $0 += mine }
      }
    }
    #expect(StartBarrier.run(appenders))
    let all = outcomes.value
    #expect(all.count == 1_600)
    #expect(all.filter { $0 == .overflowed }.count == 1)
    #expect(all.filter { $0 == .needsFlush }.count == 1)
    // 100 appends of 10 bytes fit; after the overflow everything is refused.
    #expect(all.filter { $0 == .queued }.count == 99)
    #expect(all.filter { $0 == .refused }.count == 1_600 - 101)
  }

  @Test("8 threads append while one takes: every byte comes out once, in each thread's order")
  func concurrentAppendAndTake() {
    let threads = 8
    let perThread = 5_000
    let outbox = Outbox(limit: .max)
    let requests = FlushRequests()
    let remaining = LockedValue(threads)
    let received = LockedValue([UInt8]())
    let flushes = LockedValue((asked: 0, finished: 0, pendingAtStop: true))

    let appenders: [@Sendable () -> Void] = (0..<threads).map { thread in
      {
        var asked = 0
        for sequence in 0..<perThread {
          let record = Self.record(thread: thread, sequence: sequence)
          let outcome = record.withUnsafeBytes { outbox.append($0) }
          switch outcome {
          case .needsFlush:
            asked += 1
            requests.post(.flush)
          case .queued: break
          case .overflowed, .refused: Issue.record("append refused: \(outcome)")
          }
        }
        flushes.withLock { $0.asked += asked }
        // The last appender to finish tells the writer to stop, after every flush it asked for.
        let left = remaining.withLock { count in
          count -= 1
          return count
        }
        if left == 0 { requests.post(.stop) }
      }
    }
    let writer: @Sendable () -> Void = {
      var written: [UInt8] = []
      var spare: [UInt8] = []
      var finished = 0
      while true {
        switch requests.next() {
        case .flush:
          repeat {
            outbox.take(replacingWith: &spare, inFlight: 0)
            written += spare
          } while !outbox.finishFlushIfIdle(inFlight: 0)
          finished += 1
        case .stop:
          let pending = outbox.hasPending
          received.withLock { $0 = written }
          flushes.withLock {
            $0.finished = finished
            $0.pendingAtStop = pending
          }
          return
        }
      }
    }
    #expect(StartBarrier.run(appenders + [writer]))

    let counts = flushes.value
    #expect(counts.asked >= 1)
    #expect(counts.finished == counts.asked)
    // Nothing may be left behind once every asked-for flush has run.
    #expect(counts.pendingAtStop == false)

    let bytes = received.value
    #expect(bytes.count == threads * perThread * Self.recordSize)
    var next = Array(repeating: 0, count: threads)
    var disorder = 0
    var offset = 0
    while offset + Self.recordSize <= bytes.count {
      let thread = Int(bytes[offset])
      let sequence = (1...4).reduce(0) { $0 | Int(bytes[offset + $1]) << (8 * ($1 - 1)) }
      if thread < threads, next[thread] == sequence {
        next[thread] += 1
      } else {
        disorder += 1
      }
      offset += Self.recordSize
    }
    #expect(disorder == 0)
    #expect(next == Array(repeating: perThread, count: threads))
  }

  private static let recordSize = 5

  /// One thread's numbered record: its index, then the sequence number in little-endian order.
  private static func record(thread: Int, sequence: Int) -> [UInt8] {
    [UInt8(thread)] + (0..<4).map { UInt8(truncatingIfNeeded: sequence >> (8 * $0)) }
  }

  private static func append(_ text: String, to outbox: Outbox) -> Outbox.AppendOutcome {
    Array(text.utf8).withUnsafeBytes { outbox.append($0) }
  }
}

/// What the appenders ask of the writer thread, in the order they asked.
private final class FlushRequests: Sendable {
  enum Request {
    case flush
    case stop
  }

  func post(_ request: Request) {
    queue.withLock { $0.append(request) }
    wake.signal()
  }

  /// Waits for the next request.
  func next() -> Request {
    wake.wait()
    return queue.withLock { $0.removeFirst() }
  }

  private let queue = LockedValue([Request]())
  private let wake = DispatchSemaphore(value: 0)
}
