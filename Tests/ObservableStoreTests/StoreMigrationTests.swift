import Foundation
import ObservableStore
import XCTest

/// A store of an older schema is migrated; one of a newer schema is refused.
final class StoreMigrationTests: StoreTestCase {
  /// Version 0, made by hand: the layout before versions, retained values only.
  func testVersionZeroStoreIsMigratedKeepingItsValues() throws {
    try RawDatabase.run(
      """
      PRAGMA application_id = \(0x4F42_5356);
      CREATE TABLE retained (stream TEXT PRIMARY KEY NOT NULL, value BLOB NOT NULL);
      INSERT INTO retained VALUES ('a', CAST('one' AS BLOB)), ('b', CAST('two' AS BLOB));
      """, at: storePath)
    XCTAssertEqual(RawDatabase.pragma("user_version", at: storePath), 0)

    let (store, contents) = try open()
    XCTAssertEqual(retained("a", in: contents), "one")
    XCTAssertEqual(retained("b", in: contents), "two")
    XCTAssertTrue(contents.history.isEmpty)
    XCTAssertNotEqual(contents.epoch.id, 0)
    let entry = HistoryEntry(topic: "a", sequence: 5, value: [5], timestamp: 1)
    guard case .success = write([.appendHistory(entry)], to: store) else {
      return XCTFail("the migrated store took no history")
    }
    store.close()
    XCTAssertEqual(RawDatabase.pragma("user_version", at: storePath), 3)

    let (again, reopened) = try open()
    again.close()
    XCTAssertEqual(reopened.epoch, StoreEpoch(id: contents.epoch.id, lastSequence: 5))
    XCTAssertEqual(reopened.history, [entry])
    XCTAssertEqual(reopened.retained.count, 2)
  }

  /// Version 1, made by hand as its server wrote it: history keyed by topic, a 64-bit epoch.
  /// Values and history come back in sequence order, with a new 32-bit epoch.
  func testVersionOneStoreIsMigratedKeepingValuesAndHistory() throws {
    try RawDatabase.run(
      """
      PRAGMA application_id = \(0x4F42_5356);
      PRAGMA user_version = 1;
      CREATE TABLE retained (stream TEXT PRIMARY KEY NOT NULL, value BLOB NOT NULL);
      CREATE TABLE history (
        topic TEXT NOT NULL, sequence INTEGER NOT NULL, value BLOB NOT NULL,
        timestamp INTEGER NOT NULL, PRIMARY KEY (topic, sequence)) WITHOUT ROWID;
      CREATE TABLE epoch (id INTEGER NOT NULL, last_sequence INTEGER NOT NULL);
      INSERT INTO retained VALUES ('a', CAST('one' AS BLOB));
      INSERT INTO history VALUES ('z', 2, X'02', 20), ('a', 3, X'03', 30), ('z', 1, X'01', 10);
      INSERT INTO epoch VALUES (-81985529216486896, 3);
      """, at: storePath)

    let (store, contents) = try open()
    XCTAssertEqual(retained("a", in: contents), "one")
    XCTAssertEqual(
      contents.history,
      [
        HistoryEntry(topic: "z", sequence: 1, value: [1], timestamp: 10),
        HistoryEntry(topic: "z", sequence: 2, value: [2], timestamp: 20),
        HistoryEntry(topic: "a", sequence: 3, value: [3], timestamp: 30),
      ])
    XCTAssertNotEqual(contents.epoch.id, 0)
    XCTAssertEqual(contents.epoch.lastSequence, 3)
    let entry = HistoryEntry(topic: "a", sequence: 4, value: [4], timestamp: 40)
    guard case .success = write([.appendHistory(entry), .forgetHistory(sequence: 1)], to: store)
    else { return XCTFail("the migrated store took no history") }
    store.close()
    XCTAssertEqual(RawDatabase.pragma("user_version", at: storePath), 3)

    let (again, reopened) = try open()
    again.close()
    XCTAssertEqual(
      reopened.epoch, StoreEpoch(id: contents.epoch.id, lastSequence: 4, continued: true))
    XCTAssertEqual(reopened.history.map(\.sequence), [2, 3, 4])
  }

  /// Version 2, made by hand as its server wrote it: retained values keyed by name. They come
  /// back, and a later value or clear of a migrated topic replaces its row, never adds one.
  func testVersionTwoStoreIsMigratedKeepingValuesAndHistory() throws {
    try RawDatabase.run(
      """
      PRAGMA application_id = \(0x4F42_5356);
      PRAGMA user_version = 2;
      CREATE TABLE retained (stream TEXT PRIMARY KEY NOT NULL, value BLOB NOT NULL) WITHOUT ROWID;
      CREATE TABLE history (
        sequence INTEGER PRIMARY KEY NOT NULL, topic TEXT NOT NULL, value BLOB NOT NULL,
        timestamp INTEGER NOT NULL);
      CREATE TABLE epoch (
        id INTEGER NOT NULL, last_sequence INTEGER NOT NULL, clean INTEGER NOT NULL);
      INSERT INTO retained VALUES ('a', CAST('one' AS BLOB)), ('b', CAST('two' AS BLOB)),
        ('c', CAST('three' AS BLOB));
      INSERT INTO history VALUES (7, 'a', X'07', 70);
      INSERT INTO epoch VALUES (305419896, 7, 1);
      """, at: storePath)

    let (store, contents) = try open()
    XCTAssertEqual(retained("a", in: contents), "one")
    XCTAssertEqual(retained("b", in: contents), "two")
    XCTAssertEqual(contents.epoch, StoreEpoch(id: 305_419_896, lastSequence: 7))
    XCTAssertEqual(
      contents.history, [HistoryEntry(topic: "a", sequence: 7, value: [7], timestamp: 70)])
    let changes: [StoreChange] = [
      .retain(RetainedValue("a", "uno")), .clearRetained(stream: "b"),
      .retain(RetainedValue("d", "four")),
    ]
    guard case .success = write(changes, to: store) else {
      return XCTFail("the migrated store took no change")
    }
    store.close()
    XCTAssertEqual(RawDatabase.pragma("user_version", at: storePath), 3)
    XCTAssertEqual(RawDatabase.integer("SELECT count(*) FROM retained", at: storePath), 3)

    let (again, reopened) = try open()
    again.close()
    XCTAssertEqual(
      reopened.retained.sorted { $0.stream < $1.stream },
      [RetainedValue("a", "uno"), RetainedValue("c", "three"), RetainedValue("d", "four")])
  }

  func testNewerSchemaIsRefusedAndLeftAlone() throws {
    try open().store.close()
    try RawDatabase.run("PRAGMA user_version = 9", at: storePath)
    let before = try Data(contentsOf: URL(fileURLWithPath: storePath))
    XCTAssertEqual(
      openingError(), .newerSchema(path: storePath, version: 9, known: 3))
    XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: storePath)), before)
  }
}
