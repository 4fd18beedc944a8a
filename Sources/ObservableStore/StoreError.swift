import CSQLite

/// Why the store could not be opened, or a change could not be written. Every case names the
/// file, so that an operator knows which one to look at.
package enum StoreError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The file or its directory cannot be read, written or created: permissions, a read-only
  /// file system, another process holding the store's lock.
  case unreadable(path: String, reason: String)
  /// The file is not a SQLite database (another format, a truncated or empty file) or fails
  /// SQLite's check. It is left exactly as it was.
  case corrupt(path: String, reason: String)
  /// A SQLite database that another program made: its `application_id` is not the store's.
  case foreign(path: String, applicationID: Int32)
  /// A store of a schema version newer than this server knows; a newer server can open it.
  case newerSchema(path: String, version: Int32, known: Int32)
  /// A write failed and was rolled back (a full disk, an I/O error). The store stays usable
  /// and a later write succeeds once the cause is gone. A retained publish answers
  /// `unavailable`.
  case unavailable(path: String, reason: String)
  /// The store was closed before the change could be written.
  case closed(path: String)

  package var description: String {
    switch self {
    case .unreadable(let path, let reason): "store \(path) cannot be opened: \(reason)"
    case .corrupt(let path, let reason):
      "store \(path) is damaged or not a store (\(reason)); it was left untouched"
    case .foreign(let path, let id):
      "\(path) is a SQLite database of another program (application_id \(id)); it was left untouched"
    case .newerSchema(let path, let version, let known):
      "store \(path) has schema version \(version), newer than this server's \(known)"
    case .unavailable(let path, let reason): "store \(path) cannot be written: \(reason)"
    case .closed(let path): "store \(path) is closed"
    }
  }

  /// The error for `failure` while opening, checking or loading the file at `path`.
  static func opening(_ path: String, _ failure: SQLiteFailure) -> StoreError {
    if failure.isCorruption { return .corrupt(path: path, reason: failure.description) }
    if failure.isLocked {
      return .unreadable(path: path, reason: "in use by another process (\(failure))")
    }
    return .unreadable(path: path, reason: failure.description)
  }
}
