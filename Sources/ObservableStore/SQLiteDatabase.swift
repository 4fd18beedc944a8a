import CSQLite

/// One SQLite connection: opened by ``ObservableStore/open(directory:fsync:queueLimit:)`` on
/// the caller's thread, then owned by the store's writer thread alone.
///
/// `@unchecked Sendable` because it crosses to the writer thread once and is then used by that
/// thread only. So it is opened without SQLite's own mutexes (`SQLITE_OPEN_NOMUTEX`), which
/// every call would otherwise take and release.
final class SQLiteDatabase: @unchecked Sendable {
  /// The database file.
  let path: String
  private let handle: OpaquePointer
  private var closed = false

  /// Opens the database at `path` with `flags` (`SQLITE_OPEN_READWRITE`, `SQLITE_OPEN_CREATE`).
  init(path: String, flags: Int32) throws(SQLiteFailure) {
    _ = Self.memoryCountStopped
    var handle: OpaquePointer?
    let code = sqlite3_open_v2(
      path, &handle, flags | SQLITE_OPEN_NOFOLLOW | SQLITE_OPEN_NOMUTEX, nil)
    guard code == SQLITE_OK, let handle else {
      let failure = SQLiteFailure(code: code, on: handle)
      sqlite3_close_v2(handle)
      throw failure
    }
    self.path = path
    self.handle = handle
    // A failure's code says what happened (SQLITE_IOERR_SHORT_READ, SQLITE_FULL), not only
    // that something did.
    sqlite3_extended_result_codes(handle, 1)
  }

  deinit {
    close()
  }

  /// Turns off SQLite's memory count before the process's first connection, once: it took a
  /// process-wide mutex on every allocation of the writer's.
  private static let memoryCountStopped: Bool = {
    observable_sqlite_stop_memory_count() == SQLITE_OK
  }()

  /// Closes the connection: in WAL mode the last close checkpoints the log into the file and
  /// removes it. Statements still alive keep the connection open until they are finalized.
  func close() {
    guard !closed else { return }
    closed = true
    sqlite3_close_v2(handle)
  }

  /// Runs `sql`, one or more statements that return no rows.
  func execute(_ sql: String) throws(SQLiteFailure) {
    let code = sqlite3_exec(handle, sql, nil, nil, nil)
    guard code == SQLITE_OK else { throw SQLiteFailure(code: code, on: handle) }
  }

  /// Prepares `sql`, one statement, to run many times.
  func prepare(_ sql: String) throws(SQLiteFailure) -> SQLiteStatement {
    var statement: OpaquePointer?
    let code = sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
    guard code == SQLITE_OK, let statement else { throw SQLiteFailure(code: code, on: handle) }
    return SQLiteStatement(statement)
  }

  /// The first column of every row `sql` returns, as text (a pragma's answer).
  func texts(_ sql: String) throws(SQLiteFailure) -> [String] {
    let statement = try prepare(sql)
    var rows: [String] = []
    while try statement.step() { rows.append(statement.text(0)) }
    return rows
  }

  /// The first column of the first row `sql` returns, as an integer; 0 when there is none.
  func integer(_ sql: String) throws(SQLiteFailure) -> Int64 {
    let statement = try prepare(sql)
    return try statement.step() ? statement.int64(0) : 0
  }

  /// Whether SQLite could open the file for reading only (a read-only file or file system).
  var isReadOnly: Bool { sqlite3_db_readonly(handle, "main") == 1 }

  /// Whether a transaction is open, as one is after a failed statement that SQLite did not
  /// roll back by itself.
  var inTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }
}
