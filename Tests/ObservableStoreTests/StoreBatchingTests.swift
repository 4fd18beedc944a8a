import ObservableStore
import TestSupport
import XCTest

/// Enqueued changes are written in few transactions, and a full queue says so at once.
final class StoreBatchingTests: StoreTestCase {
  func testManyEnqueuesCommitInFewTransactions() throws {
    let (store, _) = try open(.always)
    defer { store.close() }
    let completed = LockedValue(0)
    let count = 5_000
    for number in 0..<count {
      let outcome = store.enqueue([.retain(RetainedValue("t\(number % 100)", "\(number)"))]) {
        if case .success = $0 { completed.withLock { $0 += 1 } }
      }
      XCTAssertEqual(outcome, .queued)
    }
    XCTAssertTrue(eventually(timeout: .seconds(30)) { completed.value == count })
    let statistics = store.statistics
    XCTAssertEqual(statistics.changes, count)
    // One transaction each would be 5,000 fsyncs; enqueues arrive far faster than commits.
    XCTAssertLessThan(statistics.transactions, count / 10, "\(statistics)")
  }

  func testFullQueueRefusesAtOnceAndRunsNoCompletion() throws {
    let (store, _) = try open(.always, queueLimit: 8)
    let queued = LockedValue(0)
    let completed = LockedValue(0)
    var full = 0
    for number in 0..<2_000 {
      let outcome = store.enqueue([.retain(RetainedValue("t", "\(number)"))]) { _ in
        completed.withLock { $0 += 1 }
      }
      switch outcome {
      case .queued: queued.withLock { $0 += 1 }
      case .full: full += 1
      case .closed: XCTFail("closed while open")
      }
    }
    store.close()
    XCTAssertGreaterThan(full, 0, "a queue of 8 never filled under 2,000 enqueues")
    XCTAssertEqual(completed.value, queued.value)
    XCTAssertEqual(queued.value + full, 2_000)
  }
}
