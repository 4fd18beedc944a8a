import Dispatch
import TestSupport
import Testing

@testable import ObservableServer
@testable import ObservableTransport
@testable import ObservableWire

/// The outbox under threads: appenders racing past the cap, and appenders beside the writer.
extension OutboxTests {
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
          let outcome = outbox.append(record)
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
