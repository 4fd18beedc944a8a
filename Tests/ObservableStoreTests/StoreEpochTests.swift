import Glibc
import ObservableStore
import TestSupport
import XCTest

/// The epoch is kept across a clean close and made anew whenever a run may have lost a value
/// it delivered with a position: a SIGKILL, a history value the queue had no room for, a run
/// that kept no history.
final class StoreEpochTests: StoreTestCase {
  func testCleanCloseKeepsTheEpoch() throws {
    let (first, created) = try open()
    first.close()
    let (second, reopened) = try open()
    second.close()
    XCTAssertEqual(reopened.epoch.id, created.epoch.id)
    XCTAssertTrue(reopened.epoch.continued)
  }

  func testSIGKILLChangesTheEpoch() throws {
    for mode in FsyncMode.allCases {
      let roundDirectory = directory + "/\(mode)"
      let (first, created) = try open(in: roundDirectory)
      first.close()
      let child = try ChildProcess("observable-store-writer", [roundDirectory, mode.rawValue])
      let reached = eventually(timeout: .seconds(30)) { child.lines.count >= 50 }
      child.signal(SIGKILL)
      XCTAssertNotNil(child.waitForExit(), "\(mode): the writer did not die")
      XCTAssertTrue(reached, "\(mode): \(child.lines.count) writes; \(child.stderr)")

      let (store, killed) = try open(in: roundDirectory)
      store.close()
      XCTAssertFalse(killed.epoch.continued, "\(mode)")
      XCTAssertNotEqual(killed.epoch.id, created.epoch.id, "\(mode)")
      XCTAssertGreaterThanOrEqual(killed.epoch.lastSequence, 50, "\(mode)")
      let (again, after) = try open(in: roundDirectory)
      again.close()
      XCTAssertEqual(after.epoch.id, killed.epoch.id, "\(mode): a clean close since")
    }
  }

  func testHistoryValueRefusedByAFullQueueChangesTheEpoch() throws {
    let (store, created) = try open(queueLimit: 1)
    // The writer may take the first group at once; a few more fill the queue of one.
    var refused = false
    for sequence in 1...1_000 where !refused {
      let entry = HistoryEntry(topic: "t", sequence: UInt64(sequence), value: [1], timestamp: 0)
      refused = store.enqueue([.appendHistory(entry)]) == .full
    }
    XCTAssertTrue(refused, "the queue of one never filled")
    XCTAssertFalse(store.keptContinuity)
    store.close()
    let (again, reopened) = try open()
    again.close()
    XCTAssertFalse(reopened.epoch.continued)
    XCTAssertNotEqual(reopened.epoch.id, created.epoch.id)
  }

  func testBrokenContinuityChangesTheEpochAtTheNextOpen() throws {
    let (store, created) = try open()
    store.breakContinuity()
    store.close()
    let (again, reopened) = try open()
    again.close()
    XCTAssertNotEqual(reopened.epoch.id, created.epoch.id)
  }

  /// A retained value refused by a full queue breaks nothing: it is no history value.
  func testRetainedValueRefusedKeepsTheEpoch() throws {
    let (store, created) = try open(queueLimit: 1)
    var refused = false
    for number in 1...1_000 where !refused {
      refused = store.enqueue([.retain(RetainedValue("t", "\(number)"))]) == .full
    }
    XCTAssertTrue(refused, "the queue of one never filled")
    store.close()
    let (again, reopened) = try open()
    again.close()
    XCTAssertEqual(reopened.epoch.id, created.epoch.id)
  }

  /// The queue's byte limit refuses a group that would pass it, whatever the count.
  func testQueueBytesAreBounded() throws {
    let (store, _) = try ObservableStore.open(
      directory: directory, fsync: .always, queueLimit: 1_000_000, queueBytes: 4_096)
    defer { store.close() }
    let big = RetainedValue(stream: "t", value: [UInt8](repeating: 1, count: 1_000))
    var outcomes: [EnqueueOutcome] = []
    for _ in 1...100 { outcomes.append(store.enqueue([.retain(big)])) }
    XCTAssertTrue(outcomes.contains(.full), "100 KB queued under a 4 KiB limit")
  }
}
