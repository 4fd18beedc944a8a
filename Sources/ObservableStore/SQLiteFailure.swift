import CSQLite

/// A SQLite call that did not return what the store expected, with SQLite's own words for why.
struct SQLiteFailure: Error, Sendable, CustomStringConvertible {
  /// The primary result code (`SQLITE_CORRUPT`, `SQLITE_FULL`, …), without the extended bits.
  let code: Int32
  /// SQLite's message for the failure, or the store's when SQLite gave none.
  let message: String

  /// A failure with result `code` (extended or primary) and `message`.
  init(code: Int32, message: String) {
    self.code = code & 0xff
    self.message = message
  }

  /// The failure `code` left on the connection `handle`, with its message.
  init(code: Int32, on handle: OpaquePointer?) {
    let text = handle.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) }
    self.init(code: code, message: text ?? String(cString: sqlite3_errstr(code)))
  }

  var description: String { "\(message) (SQLite code \(code))" }

  /// Whether the file is not a database or fails SQLite's own checks.
  var isCorruption: Bool { code == SQLITE_CORRUPT || code == SQLITE_NOTADB }

  /// Whether another connection, another process's above all, holds the file's lock.
  var isLocked: Bool { code == SQLITE_BUSY || code == SQLITE_LOCKED }
}
