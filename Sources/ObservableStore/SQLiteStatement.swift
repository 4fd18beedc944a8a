import CSQLite

/// One prepared statement of a ``SQLiteDatabase``, finalized when the value goes away.
///
/// Used by one thread at a time, like its database.
final class SQLiteStatement {
  private let handle: OpaquePointer

  /// Wraps `handle`, a statement that `sqlite3_prepare_v2` made.
  init(_ handle: OpaquePointer) {
    self.handle = handle
  }

  deinit {
    sqlite3_finalize(handle)
  }

  /// Binds `value` to the parameter at `index` (the first is 1).
  func bind(_ index: Int32, _ value: Int64) throws(SQLiteFailure) {
    try check(sqlite3_bind_int64(handle, index, value))
  }

  /// Binds a copy of `bytes` as a blob to the parameter at `index`.
  func bind(_ index: Int32, _ bytes: [UInt8]) throws(SQLiteFailure) {
    // An empty array may have no storage, and a null pointer would bind NULL, which the
    // NOT NULL columns refuse: an empty value is a zero-length blob.
    let code = bytes.withUnsafeBytes {
      guard let start = $0.baseAddress, !$0.isEmpty else {
        return sqlite3_bind_zeroblob(handle, index, 0)
      }
      return observable_sqlite_bind_blob_copy(handle, index, start, Int32($0.count))
    }
    try check(code)
  }

  /// Binds a copy of `text`, as UTF-8, to the parameter at `index`.
  func bind(_ index: Int32, _ text: String) throws(SQLiteFailure) {
    var text = text
    let code = text.withUTF8 { utf8 in
      // A null pointer would bind NULL, which the NOT NULL columns refuse.
      guard let start = utf8.baseAddress, !utf8.isEmpty else {
        return sqlite3_bind_text(handle, index, "", 0, nil)
      }
      return UnsafeRawPointer(start).withMemoryRebound(to: CChar.self, capacity: utf8.count) {
        observable_sqlite_bind_text_copy(handle, index, $0, Int32(utf8.count))
      }
    }
    try check(code)
  }

  /// Runs the statement once with `id`, `text` and `bytes` bound, without copying either, to
  /// parameters 1, 2 and 3, then readies it to run again.
  ///
  /// The values are bound in place (`SQLITE_STATIC`) for the one run: SQLite reads them while
  /// the step writes the row and forgets them at the reset, all inside the buffers' scope. A
  /// copy of each (a `malloc` and a `memcpy`) per retained value was a share of the writer's
  /// time.
  func run(id: Int64, text: String, bytes: [UInt8]) throws(SQLiteFailure) {
    var text = text
    let failure = text.withUTF8 { utf8 in
      bytes.withUnsafeBytes { blob in
        defer { reset() }
        // An empty buffer may have no address, and a null pointer would bind NULL, which
        // the NOT NULL columns refuse.
        var code = sqlite3_bind_int64(handle, 1, id)
        if code == SQLITE_OK {
          code =
            utf8.isEmpty
            ? sqlite3_bind_text(handle, 2, Self.emptyText, 0, nil)
            : UnsafeRawPointer(utf8.baseAddress!).withMemoryRebound(
              to: CChar.self, capacity: utf8.count
            ) { sqlite3_bind_text(handle, 2, $0, Int32(utf8.count), nil) }
        }
        if code == SQLITE_OK {
          code =
            blob.isEmpty
            ? sqlite3_bind_zeroblob(handle, 3, 0)
            : sqlite3_bind_blob(handle, 3, blob.baseAddress, Int32(blob.count), nil)
        }
        if code == SQLITE_OK {
          code = sqlite3_step(handle)
          if code == SQLITE_DONE { code = SQLITE_OK }
        }
        // Read before the reset, which may change the connection's message.
        return code == SQLITE_OK ? nil : SQLiteFailure(code: code, on: sqlite3_db_handle(handle))
      }
    }
    if let failure { throw failure }
  }

  /// Runs the statement once with `rows` bound, three parameters a row from the first (the id,
  /// the name as text, the value as a blob), then readies it to run again.
  ///
  /// Every name and value is copied once into `scratch`, which the caller keeps from run to
  /// run, and bound there in place (`SQLITE_STATIC`) for the one run: bound apart, each was a
  /// copy SQLite made (a `malloc`, a `memcpy` and a `free` each), a third of the writer's
  /// instructions outside SQLite's own work on the rows. A small name lives inside its
  /// `String`, not at an address that outlives a closure, so the names cannot be bound where
  /// they are.
  func run(rows: ArraySlice<(id: Int64, value: RetainedValue)>, scratch: inout [UInt8])
    throws(SQLiteFailure)
  {
    scratch.removeAll(keepingCapacity: true)
    for (_, value) in rows {
      var stream = value.stream
      stream.withUTF8 { scratch.append(contentsOf: $0) }
      scratch.append(contentsOf: value.value)
    }
    let failure = scratch.withUnsafeBytes { buffer -> SQLiteFailure? in
      defer { reset() }
      var offset = 0
      var parameter: Int32 = 1
      var code = SQLITE_OK
      for (id, value) in rows where code == SQLITE_OK {
        let (textCount, blobCount) = (value.stream.utf8.count, value.value.count)
        code = sqlite3_bind_int64(handle, parameter, id)
        if code == SQLITE_OK {
          // A null pointer would bind NULL, which the NOT NULL columns refuse; the names are
          // never empty, but an empty one binds an empty text all the same.
          code =
            textCount == 0
            ? sqlite3_bind_text(handle, parameter + 1, Self.emptyText, 0, nil)
            : sqlite3_bind_text(
              handle, parameter + 1,
              (buffer.baseAddress! + offset).assumingMemoryBound(to: CChar.self),
              Int32(textCount), nil)
        }
        offset += textCount
        if code == SQLITE_OK {
          code =
            blobCount == 0
            ? sqlite3_bind_zeroblob(handle, parameter + 2, 0)
            : sqlite3_bind_blob(
              handle, parameter + 2, buffer.baseAddress! + offset, Int32(blobCount), nil)
        }
        offset += blobCount
        parameter += 3
      }
      if code == SQLITE_OK {
        code = sqlite3_step(handle)
        if code == SQLITE_DONE { code = SQLITE_OK }
      }
      // Read before the reset, which may change the connection's message.
      return code == SQLITE_OK ? nil : SQLiteFailure(code: code, on: sqlite3_db_handle(handle))
    }
    if let failure { throw failure }
  }

  /// A zero-length text that stays valid for as long as a statement may hold it.
  private static var emptyText: UnsafePointer<CChar> {
    UnsafeRawPointer(("" as StaticString).utf8Start).assumingMemoryBound(to: CChar.self)
  }

  /// Runs the statement to its next row: `true` when there is one to read, `false` when done.
  func step() throws(SQLiteFailure) -> Bool {
    switch sqlite3_step(handle) {
    case SQLITE_ROW: return true
    case SQLITE_DONE: return false
    case let code:
      let failure = SQLiteFailure(code: code, on: sqlite3_db_handle(handle))
      sqlite3_reset(handle)
      throw failure
    }
  }

  /// Runs a statement that returns no rows, then readies it to run again.
  func run() throws(SQLiteFailure) {
    defer { reset() }
    while try step() {}
  }

  /// Readies the statement to run again, keeping no bound value.
  func reset() {
    sqlite3_reset(handle)
    sqlite3_clear_bindings(handle)
  }

  /// The integer in `column` (the first is 0) of the current row.
  func int64(_ column: Int32) -> Int64 {
    sqlite3_column_int64(handle, column)
  }

  /// The bytes of the blob or text in `column` of the current row.
  func bytes(_ column: Int32) -> [UInt8] {
    let count = Int(sqlite3_column_bytes(handle, column))
    guard count > 0, let start = sqlite3_column_blob(handle, column) else { return [] }
    return Array(UnsafeRawBufferPointer(start: start, count: count))
  }

  /// The text in `column` of the current row.
  func text(_ column: Int32) -> String {
    String(decoding: bytes(column), as: UTF8.self)
  }

  private func check(_ code: Int32) throws(SQLiteFailure) {
    guard code == SQLITE_OK else {
      throw SQLiteFailure(code: code, on: sqlite3_db_handle(handle))
    }
  }
}
