import Foundation
import Glibc
import ObservableStore
import TestSupport
import XCTest

/// A damaged, foreign or unwritable store is a clear error naming the file, and is never
/// changed.
final class StoreCorruptionTests: StoreTestCase {
  /// A store of 2,000 values, closed: about 300 KiB.
  private func makeStore() throws {
    let (store, _) = try open()
    let value = String(repeating: "v", count: 100)
    let changes = (0..<2_000).map { StoreChange.retain(RetainedValue("topic.\($0)", value)) }
    guard case .success = write(changes, to: store) else { return XCTFail("not written") }
    store.close()
  }

  private func contents() throws -> Data { try Data(contentsOf: URL(fileURLWithPath: storePath)) }

  func testTruncatedStoreIsRefusedAndLeftAlone() throws {
    try makeStore()
    let whole = try contents()
    for length in [whole.count / 2, 4_096 + 100, 1_000] {
      try whole.prefix(length).write(to: URL(fileURLWithPath: storePath))
      guard case .corrupt(let path, _) = openingError() else {
        return XCTFail("a store truncated to \(length) bytes opened")
      }
      XCTAssertEqual(path, storePath)
      XCTAssertEqual(try contents(), whole.prefix(length), "changed at \(length) bytes")
    }
  }

  /// A damaged table that loading does not read (the history, empty in a store of retained
  /// values only) is found by the check, before anything is loaded.
  func testDamagedTableIsFoundByTheCheck() throws {
    try makeStore()
    let root = try XCTUnwrap(
      RawDatabase.integer(
        "SELECT rootpage FROM sqlite_schema WHERE name = 'history'",
        at: storePath))
    let pageSize = try XCTUnwrap(RawDatabase.pragma("page_size", at: storePath))
    var bytes = try contents()
    // The first byte of a b-tree page says its kind; 0 is none of them.
    bytes[Int((root - 1) * pageSize)] = 0
    try bytes.write(to: URL(fileURLWithPath: storePath))
    guard case .corrupt(let path, _) = openingError() else {
      return XCTFail("a store with a damaged table opened")
    }
    XCTAssertEqual(path, storePath)
    XCTAssertEqual(try contents(), bytes)
  }

  func testEmptyFileIsRefused() throws {
    XCTAssertTrue(FileManager.default.createFile(atPath: storePath, contents: Data()))
    XCTAssertEqual(openingError(), .corrupt(path: storePath, reason: "an empty file"))
    XCTAssertEqual(try contents().count, 0)
  }

  func testFileOfAnotherFormatIsRefusedAndLeftAlone() throws {
    let text = Data(String(repeating: "not a database, a log line\n", count: 400).utf8)
    try text.write(to: URL(fileURLWithPath: storePath))
    guard case .corrupt(let path, let reason) = openingError() else {
      return XCTFail("a text file opened as a store")
    }
    XCTAssertEqual(path, storePath)
    XCTAssertTrue(reason.contains("not a database"), reason)
    XCTAssertEqual(try contents(), text)
  }

  func testAnotherProgramsDatabaseIsRefusedAndLeftAlone() throws {
    try RawDatabase.run("CREATE TABLE t (x); INSERT INTO t VALUES (1);", at: storePath)
    let before = try contents()
    XCTAssertEqual(openingError(), .foreign(path: storePath, applicationID: 0))
    XCTAssertEqual(try contents(), before)
  }

  /// An existing store on a read-only file system, and a new one there; root ignores a
  /// directory's mode, so the test remounts a tmpfs read-only when it runs as root.
  func testReadOnlyDirectoryIsAClearError() throws {
    let mount = try TmpfsMount(size: "4m", in: directory)
    defer { mount.unmount() }
    let existing = mount.path + "/existing"
    try open(in: existing).store.close()
    try mount.remountReadOnly()

    guard case .unreadable(let path, let reason) = openingError(in: existing) else {
      return XCTFail("a store on a read-only file system opened")
    }
    XCTAssertEqual(path, existing + "/observable.sqlite3")
    XCTAssertTrue(reason.contains("read-only"), reason)
    guard case .unreadable = openingError(in: mount.path) else {
      return XCTFail("a store was made on a read-only file system")
    }
  }
}
