import Foundation
import ObservableStore
import XCTest

/// What a store is given comes back when it is opened again.
final class StoreRoundTripTests: StoreTestCase {
  func testRetainedValuesHistoryAndEpochComeBack() throws {
    let (store, fresh) = try open()
    XCTAssertTrue(fresh.retained.isEmpty)
    XCTAssertTrue(fresh.history.isEmpty)
    XCTAssertEqual(fresh.epoch.lastSequence, 0)
    XCTAssertNotEqual(fresh.epoch.id, 0)
    let changes: [StoreChange] = [
      .retain(RetainedValue("a", #"{"stream":"a","value":1}"#)),
      .retain(RetainedValue("b", "old")),
      .retain(RetainedValue("b", "new")),
      .retain(RetainedValue("gone", "x")),
      .clearRetained(stream: "gone"),
      .retain(RetainedValue(stream: "empty", value: [])),
      // Of one topic's changes in a transaction only the last is written: these say "2".
      .retain(RetainedValue("back", "1")),
      .clearRetained(stream: "back"),
      .retain(RetainedValue("back", "2")),
      .appendHistory(HistoryEntry(topic: "t", sequence: 1, value: [1], timestamp: 10)),
      .appendHistory(HistoryEntry(topic: "t", sequence: 2, value: [2], timestamp: 20)),
      .appendHistory(HistoryEntry(topic: "t", sequence: 3, value: [3], timestamp: 30)),
      .appendHistory(HistoryEntry(topic: "u", sequence: 7, value: [7], timestamp: 70)),
      .forgetHistory(sequence: 1),
    ]
    guard case .success = write(changes, to: store) else { return XCTFail("not written") }
    store.close()
    XCTAssertEqual(store.enqueue([.clearRetained(stream: "a")]), .closed)

    let (again, contents) = try open()
    defer { again.close() }
    XCTAssertEqual(
      contents.retained.sorted { $0.stream < $1.stream },
      [
        RetainedValue("a", #"{"stream":"a","value":1}"#), RetainedValue("b", "new"),
        RetainedValue("back", "2"), RetainedValue(stream: "empty", value: []),
      ])
    XCTAssertEqual(
      contents.history,
      [
        HistoryEntry(topic: "t", sequence: 2, value: [2], timestamp: 20),
        HistoryEntry(topic: "t", sequence: 3, value: [3], timestamp: 30),
        HistoryEntry(topic: "u", sequence: 7, value: [7], timestamp: 70),
      ])
    XCTAssertEqual(
      contents.epoch, StoreEpoch(id: fresh.epoch.id, lastSequence: 7, continued: true))
  }

  /// Topics are written by row ids the writer keeps: across transactions and restarts, a
  /// topic cleared and retained again, or retained many times, has one row, its last value.
  func testEachTopicKeepsOneRowAcrossTransactionsAndRestarts() throws {
    for round in 0..<3 {
      let (store, contents) = try open()
      if round > 0 {
        XCTAssertEqual(
          contents.retained.sorted { $0.stream < $1.stream },
          [RetainedValue("kept", "\(round - 1)"), RetainedValue("toggled", "\(round - 1)")])
      }
      for step in 0..<3 {
        let changes: [StoreChange] = [
          .retain(RetainedValue("kept", "\(round)")), .retain(RetainedValue("toggled", "x")),
          step == 2
            ? .retain(RetainedValue("toggled", "\(round)")) : .clearRetained(stream: "toggled"),
          .retain(RetainedValue("new\(round)", "x")), .clearRetained(stream: "new\(round)"),
        ]
        guard case .success = write(changes, to: store) else { return XCTFail("not written") }
        guard case .success = write([.clearRetained(stream: "never")], to: store) else {
          return XCTFail("not written")
        }
      }
      store.close()
      XCTAssertEqual(RawDatabase.integer("SELECT count(*) FROM retained", at: storePath), 2)
    }
  }

  /// A transaction of many values is written several rows a statement (32, 8, 4, then one at
  /// a time): 46 topics, two of them published twice, and a clear and history between them,
  /// all come back as the last change of each said.
  func testManyValuesOfOneTransactionComeBack() throws {
    let (store, _) = try open()
    var changes = (0..<46).map { StoreChange.retain(RetainedValue("t\($0)", "old")) }
    guard case .success = write(changes, to: store) else { return XCTFail("not written") }
    changes = (0..<46).map { StoreChange.retain(RetainedValue("t\($0)", "v\($0)")) }
    changes[3] = .retain(RetainedValue(stream: "t3", value: []))
    changes[10] = .clearRetained(stream: "t10")
    changes.insert(
      .appendHistory(HistoryEntry(topic: "h", sequence: 1, value: [1], timestamp: 1)), at: 20)
    changes += [.retain(RetainedValue("t7", "again")), .retain(RetainedValue("t44", "last"))]
    guard case .success = write(changes, to: store) else { return XCTFail("not written") }
    store.close()

    let (again, contents) = try open()
    again.close()
    var expected = (0..<46).map { RetainedValue("t\($0)", "v\($0)") }
    expected[3] = RetainedValue(stream: "t3", value: [])
    expected[7] = RetainedValue("t7", "again")
    expected[44] = RetainedValue("t44", "last")
    expected.remove(at: 10)
    XCTAssertEqual(
      contents.retained.sorted { $0.stream < $1.stream }, expected.sorted { $0.stream < $1.stream })
    XCTAssertEqual(contents.history.map(\.sequence), [1])
    XCTAssertEqual(RawDatabase.integer("SELECT count(*) FROM retained", at: storePath), 45)
  }

  /// The rows of one statement run are bound from one buffer, name after value after name:
  /// names long and short (a short `String` keeps its bytes inline), values empty, short and
  /// long, in one transaction of 45 (a run of 32, one of 8, one of 4 and one alone), come back
  /// each as it was.
  func testNamesAndValuesOfManyLengthsComeBackFromOneTransaction() throws {
    let (store, _) = try open()
    let values = (0..<45).map { number in
      RetainedValue(
        stream: number % 3 == 0
          ? "t\(number)" : "a.long.topic.name.\(number).\(String(repeating: "n", count: number))",
        value: [UInt8](repeating: UInt8(number), count: number % 4 == 0 ? 0 : number * 3))
    }
    guard case .success = write(values.map { .retain($0) }, to: store) else {
      return XCTFail("not written")
    }
    store.close()
    let (again, contents) = try open()
    again.close()
    XCTAssertEqual(
      contents.retained.sorted { $0.stream < $1.stream }, values.sorted { $0.stream < $1.stream })
  }

  func testEveryNewStoreHasItsOwnEpoch() throws {
    let (first, contents) = try open()
    first.close()
    let elsewhere = directory + "/elsewhere"
    let (second, other) = try open(in: elsewhere)
    second.close()
    XCTAssertNotEqual(contents.epoch.id, other.epoch.id)
    XCTAssertEqual(try open().contents.epoch.id, contents.epoch.id)
  }

  /// A clean close (what SIGTERM runs) writes everything still queued, in every mode.
  func testCloseWritesEverythingQueued() throws {
    for mode in FsyncMode.allCases {
      let modeDirectory = directory + "/\(mode)"
      let (store, _) = try open(mode, in: modeDirectory)
      for number in 0..<5_000 {
        XCTAssertEqual(store.enqueue([.retain(RetainedValue("t\(number)", "\(number)"))]), .queued)
      }
      store.close()
      let (again, contents) = try open(mode, in: modeDirectory)
      again.close()
      XCTAssertEqual(contents.retained.count, 5_000, "\(mode)")
      XCTAssertEqual(retained("t4999", in: contents), "4999")
      // The close checkpointed the log into the file and removed it.
      XCTAssertFalse(
        FileManager.default.fileExists(atPath: modeDirectory + "/observable.sqlite3-wal"))
    }
  }

  /// A second server on the same directory is refused while the first has the store open.
  func testOpenStoreIsRefusedToASecondOpener() throws {
    let (store, _) = try open()
    defer { store.close() }
    guard case .unreadable(let path, let reason) = openingError() else {
      return XCTFail("a second open was not refused")
    }
    XCTAssertEqual(path, storePath)
    XCTAssertTrue(reason.contains("another process"), reason)
  }
}
