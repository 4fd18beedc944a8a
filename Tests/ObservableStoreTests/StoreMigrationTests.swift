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
    XCTAssertEqual(RawDatabase.pragma("user_version", at: storePath), 1)

    let (again, reopened) = try open()
    again.close()
    XCTAssertEqual(reopened.epoch, StoreEpoch(id: contents.epoch.id, lastSequence: 5))
    XCTAssertEqual(reopened.history, [entry])
    XCTAssertEqual(reopened.retained.count, 2)
  }

  func testNewerSchemaIsRefusedAndLeftAlone() throws {
    try open().store.close()
    try RawDatabase.run("PRAGMA user_version = 9", at: storePath)
    let before = try Data(contentsOf: URL(fileURLWithPath: storePath))
    XCTAssertEqual(
      openingError(), .newerSchema(path: storePath, version: 9, known: 1))
    XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: storePath)), before)
  }
}
