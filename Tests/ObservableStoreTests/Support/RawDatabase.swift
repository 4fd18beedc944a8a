import CSQLite

/// SQLite files made by hand, as another program or an older server would have left them.
enum RawDatabase {
  /// Makes (or opens) the database at `path` and runs `sql` on it.
  static func run(_ sql: String, at path: String) throws {
    var handle: OpaquePointer?
    defer { sqlite3_close_v2(handle) }
    guard sqlite3_open(path, &handle) == SQLITE_OK else {
      throw RawDatabaseFailure(text: String(cString: sqlite3_errmsg(handle)))
    }
    var message: UnsafeMutablePointer<CChar>?
    guard sqlite3_exec(handle, sql, nil, nil, &message) == SQLITE_OK else {
      defer { sqlite3_free(message) }
      throw RawDatabaseFailure(text: message.map { String(cString: $0) } ?? "sqlite3_exec failed")
    }
  }

  /// The integer a pragma such as `user_version` answers for the database at `path`.
  static func pragma(_ name: String, at path: String) -> Int64? {
    integer("PRAGMA \(name)", at: path)
  }

  /// The first column of the first row `sql` answers for the database at `path`, read-only.
  static func integer(_ sql: String, at path: String) -> Int64? {
    var handle: OpaquePointer?
    defer { sqlite3_close_v2(handle) }
    var statement: OpaquePointer?
    defer { sqlite3_finalize(statement) }
    guard sqlite3_open_v2(path, &handle, SQLITE_OPEN_READONLY, nil) == SQLITE_OK,
      sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK,
      sqlite3_step(statement) == SQLITE_ROW
    else { return nil }
    return sqlite3_column_int64(statement, 0)
  }
}

/// What SQLite said when a hand-made file could not be made.
struct RawDatabaseFailure: Error {
  let text: String
}
