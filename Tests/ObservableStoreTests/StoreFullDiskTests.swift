import Foundation
import Glibc
import ObservableStore
import TestSupport
import XCTest

/// A full disk fails writes with `unavailable`, and the store works again once there is room.
final class StoreFullDiskTests: StoreTestCase {
  /// Fills the file system at `path` with a file at `filler`, until it is full.
  private func fill(_ filler: String) {
    let descriptor = Glibc.open(filler, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    guard descriptor >= 0 else { return XCTFail("cannot make \(filler)") }
    defer { Glibc.close(descriptor) }
    let block = [UInt8](repeating: 0xAB, count: 4_096)
    while block.withUnsafeBytes({ Glibc.write(descriptor, $0.baseAddress, $0.count) }) > 0 {}
    XCTAssertEqual(errno, ENOSPC)
  }

  func testFullDiskFailsWritesAndTheStoreRecoversWhenSpaceReturns() throws {
    let mount = try TmpfsMount(size: "4m", in: directory)
    defer { mount.unmount() }
    let (store, _) = try open(.always, in: mount.path + "/data")
    let value = String(repeating: "x", count: 256 << 10)
    let first: [StoreChange] = [
      .retain(RetainedValue("before", "kept")), .retain(RetainedValue("cleared", "old")),
    ]
    guard case .success = write(first, to: store) else {
      store.close()
      return XCTFail("the first write failed")
    }
    let filler = mount.path + "/filler"
    fill(filler)

    // The log must grow for a value this size, and there is no room: the clear beside it
    // fails too, and its row stays.
    let refused = write(
      [.retain(RetainedValue("big", value)), .clearRetained(stream: "cleared")], to: store)
    guard case .failure(let error) = refused, case .unavailable(let path, let reason) = error else {
      store.close()
      return XCTFail("a write to a full disk gave \(String(describing: refused))")
    }
    XCTAssertEqual(path, mount.path + "/data/observable.sqlite3")
    XCTAssertTrue(reason.lowercased().contains("full"), reason)
    XCTAssertEqual(store.statistics.failures, 1)

    XCTAssertEqual(unlink(filler), 0)
    let after: [StoreChange] = [
      .retain(RetainedValue("after", value)), .retain(RetainedValue("cleared", "new")),
    ]
    guard case .success = write(after, to: store) else {
      store.close()
      return XCTFail("a write after the space returned failed")
    }
    store.close()
    let (again, contents) = try open(.always, in: mount.path + "/data")
    again.close()
    XCTAssertEqual(retained("before", in: contents), "kept")
    XCTAssertEqual(retained("after", in: contents), value)
    XCTAssertNil(retained("big", in: contents))
    // The value after the failed clear replaced the topic's row rather than adding a second.
    XCTAssertEqual(retained("cleared", in: contents), "new")
    XCTAssertEqual(
      RawDatabase.integer(
        "SELECT count(*) FROM retained WHERE stream = 'cleared'",
        at: mount.path + "/data/observable.sqlite3"), 1)
  }
}
