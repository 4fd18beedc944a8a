import Foundation
import ObservableStore
import TestSupport
import XCTest

/// A test over a store in a fresh directory of its own, removed afterwards.
class StoreTestCase: XCTestCase {
  /// The test's directory, made before it runs.
  private(set) var directory = ""

  /// Where the store's file is.
  var storePath: String { directory + "/observable.sqlite3" }

  override func setUpWithError() throws {
    directory =
      FileManager.default.temporaryDirectory
      .appendingPathComponent("observable-store-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
  }

  override func tearDownWithError() throws {
    try? FileManager.default.removeItem(atPath: directory)
  }

  /// Opens the store in the test's directory, or in `directory`.
  func open(
    _ fsync: FsyncMode = .always, in directory: String? = nil, queueLimit: Int = 65_536
  ) throws -> (store: ObservableStore, contents: StoreContents) {
    try ObservableStore.open(
      directory: directory ?? self.directory, fsync: fsync, queueLimit: queueLimit)
  }

  /// Enqueues `changes` and waits for their outcome, up to 10 s; `nil` when it did not come
  /// or the queue refused them.
  func write(_ changes: [StoreChange], to store: ObservableStore) -> StoreWriteOutcome? {
    let outcome = LockedValue<StoreWriteOutcome?>(nil)
    guard
      store.enqueue(changes, completion: { result in outcome.withLock { $0 = result } })
        == .queued
    else { return nil }
    _ = eventually(timeout: .seconds(10)) { outcome.value != nil }
    return outcome.value
  }

  /// What opening the store throws, or `nil` when it opened (and was closed again).
  func openingError(in directory: String? = nil) -> StoreError? {
    do {
      try open(in: directory).store.close()
      return nil
    } catch let error as StoreError {
      return error
    } catch {
      XCTFail("not a StoreError: \(error)")
      return nil
    }
  }

  /// `stream`'s retained value as text, from loaded `contents`.
  func retained(_ stream: String, in contents: StoreContents) -> String? {
    contents.retained.first { $0.stream == stream }.map {
      String(decoding: $0.value, as: UTF8.self)
    }
  }
}

extension RetainedValue {
  /// A retained value of text.
  init(_ stream: String, _ text: String) {
    self.init(stream: stream, value: Array(text.utf8))
  }
}
