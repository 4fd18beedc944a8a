import CSQLite
import Glibc

/// Finding, creating, checking and loading the store's file, before the writer thread starts.
enum StoreFile {
  /// The file's name inside the data directory.
  static let name = "observable.sqlite3"

  /// Opens the store in `directory` (made if missing, like the file): checks that it is a
  /// store this server can read, migrates it to the current schema and loads everything.
  ///
  /// A file that fails any check is left exactly as it was.
  static func open(directory: String, fsync: FsyncMode) throws(StoreError) -> (
    SQLiteDatabase, StoreContents, RetainedRows
  ) {
    let path = directory.hasSuffix("/") ? directory + name : directory + "/" + name
    try makeDirectory(directory)
    var info = stat()
    if lstat(path, &info) != 0 {
      guard errno == ENOENT else { throw .unreadable(path: path, reason: reason(errno)) }
      try create(path, in: directory)
    } else if info.st_mode & S_IFMT != S_IFREG {
      throw .corrupt(path: path, reason: "not a regular file")
    } else if info.st_size == 0 {
      throw .corrupt(path: path, reason: "an empty file")
    }
    let database: SQLiteDatabase
    do throws(SQLiteFailure) {
      database = try SQLiteDatabase(path: path, flags: SQLITE_OPEN_READWRITE)
    } catch {
      throw .opening(path, error)
    }
    guard !database.isReadOnly else {
      throw .unreadable(path: path, reason: "read-only, and the server must write its store")
    }
    do {
      // Held from the first read to the close: a second server on the same directory is
      // refused rather than writing beside this one. Set before WAL is first used, it also
      // keeps SQLite's WAL index in memory instead of a -shm file.
      try database.execute("PRAGMA locking_mode = EXCLUSIVE")
      let application = Int32(truncatingIfNeeded: try database.integer("PRAGMA application_id"))
      guard application == StoreSchema.applicationID else {
        throw StoreError.foreign(path: path, applicationID: application)
      }
      let version = Int32(truncatingIfNeeded: try database.integer("PRAGMA user_version"))
      guard version <= StoreSchema.version else {
        throw StoreError.newerSchema(path: path, version: version, known: StoreSchema.version)
      }
      let problems = try database.texts("PRAGMA quick_check")
      guard problems == ["ok"] else {
        throw StoreError.corrupt(path: path, reason: problems.prefix(3).joined(separator: "; "))
      }
      let journal = try database.texts("PRAGMA journal_mode = WAL")
      guard journal == ["wal"] else {
        throw StoreError.unreadable(path: path, reason: "WAL journal refused (\(journal))")
      }
      // Migrations and the epoch's mark are synced in every mode; the mode's own setting
      // applies from the first change on.
      try database.execute("PRAGMA synchronous = FULL")
      try StoreSchema.migrate(database, from: version)
      let epoch = try beginRun(database)
      let (contents, rows) = try load(database, epoch: epoch)
      try database.execute("PRAGMA synchronous = \(fsync.synchronousPragma)")
      return (database, contents, rows)
    } catch let error as StoreError {
      throw error
    } catch let failure as SQLiteFailure {
      throw .opening(path, failure)
    } catch {
      throw .unreadable(path: path, reason: "\(error)")
    }
  }

  /// Makes `directory`, readable by its owner only, unless it exists.
  private static func makeDirectory(_ directory: String) throws(StoreError) {
    guard mkdir(directory, 0o700) != 0, errno != EEXIST else { return }
    throw .unreadable(path: directory, reason: "cannot make the directory: \(reason(errno))")
  }

  /// Makes a new store at `path`: built under a temporary name and renamed into place once
  /// complete, so that a crash while creating never leaves a half-made store to refuse.
  private static func create(_ path: String, in directory: String) throws(StoreError) {
    let temporary = path + ".creating"
    for leftover in [temporary, temporary + "-journal"] { unlink(leftover) }
    do throws(SQLiteFailure) {
      let database = try SQLiteDatabase(
        path: temporary, flags: SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)
      try database.execute("PRAGMA application_id = \(StoreSchema.applicationID)")
      try database.execute("BEGIN IMMEDIATE")
      try database.execute(StoreSchema.current)
      try StoreSchema.insertEpoch(into: database)
      try database.execute("PRAGMA user_version = \(StoreSchema.version)")
      try database.execute("COMMIT")
      database.close()
    } catch {
      unlink(temporary)
      throw .opening(path, error)
    }
    guard rename(temporary, path) == 0 else {
      let code = errno
      unlink(temporary)
      throw .unreadable(path: path, reason: "cannot rename the new store: \(reason(code))")
    }
    syncDirectory(directory)
  }

  /// Syncs `directory`, so that the new file's name survives a machine crash.
  private static func syncDirectory(_ directory: String) {
    let descriptor = Glibc.open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard descriptor >= 0 else { return }
    _ = fsync(descriptor)
    _ = Glibc.close(descriptor)
  }

  /// Reads every retained value (in name order), with its row, and every history entry;
  /// `epoch` is the run's.
  ///
  /// Of two rows of one topic, which the writer never makes, the later is the value.
  private static func load(_ database: SQLiteDatabase, epoch: StoreEpoch) throws(SQLiteFailure)
    -> (StoreContents, RetainedRows)
  {
    var retained: [RetainedValue] = []
    var rows = RetainedRows()
    let values = try database.prepare("SELECT id, stream, value FROM retained ORDER BY id")
    while try values.step() {
      let value = RetainedValue(stream: values.text(1), value: values.bytes(2))
      if rows.load(value.stream, id: values.int64(0)) {
        retained.removeAll { $0.stream == value.stream }
      }
      retained.append(value)
    }
    // In name order, as the table keyed by name (schema 2) gave them: the server's ordered
    // index of topic names fills much faster in order than in the order topics were made.
    retained.sort { $0.stream < $1.stream }
    var history: [HistoryEntry] = []
    let entries = try database.prepare(
      "SELECT topic, sequence, value, timestamp FROM history ORDER BY sequence")
    while try entries.step() {
      history.append(
        HistoryEntry(
          topic: entries.text(0), sequence: UInt64(bitPattern: entries.int64(1)),
          value: entries.bytes(2), timestamp: entries.int64(3)))
    }
    return (
      StoreContents(retained: retained, history: history, epoch: epoch), rows
    )
  }

  /// Reads the epoch and marks the store open (not closed cleanly) until a clean close marks
  /// it again; when the last run did not close it cleanly, the epoch gets a new id, since
  /// values delivered with its positions may be missing.
  private static func beginRun(_ database: SQLiteDatabase) throws(SQLiteFailure) -> StoreEpoch {
    let row = try database.prepare("SELECT id, last_sequence, clean FROM epoch")
    guard try row.step() else {
      throw SQLiteFailure(code: SQLITE_CORRUPT, message: "the epoch table has no row")
    }
    let continued = row.int64(2) != 0
    let id = continued ? UInt32(truncatingIfNeeded: row.int64(0)) : StoreSchema.newEpochID()
    let lastSequence = UInt64(bitPattern: row.int64(1))
    row.reset()
    try database.execute("UPDATE epoch SET id = \(id), clean = 0")
    return StoreEpoch(id: id, lastSequence: lastSequence, continued: continued)
  }

  /// `strerror` for `code`.
  static func reason(_ code: Int32) -> String { String(cString: strerror(code)) }
}
