/// The store's tables, the numbers that say a file is a store and of which version, and how an
/// older store becomes the current one.
///
/// A file is the server's store when its `application_id` is ``applicationID``; its
/// `user_version` is its schema version. A server opens a store of any version up to
/// ``version``, migrating it forward in one transaction per step, and refuses a newer one.
enum StoreSchema {
  /// "OBSV" in ASCII, in the database header's `application_id` (as `file(1)` reads it).
  static let applicationID: Int32 = 0x4F42_5356

  /// The schema this server writes.
  static let version: Int32 = 1

  /// Version 1, for a new store: retained values, topic history and the epoch's one row.
  static let current = """
    CREATE TABLE retained (stream TEXT PRIMARY KEY NOT NULL, value BLOB NOT NULL);
    CREATE TABLE history (
      topic TEXT NOT NULL, sequence INTEGER NOT NULL, value BLOB NOT NULL,
      timestamp INTEGER NOT NULL, PRIMARY KEY (topic, sequence)) WITHOUT ROWID;
    CREATE TABLE epoch (id INTEGER NOT NULL, last_sequence INTEGER NOT NULL);
    """

  /// Turns a store of schema `version` into `version + 1`, inside the transaction
  /// ``migrate(_:from:)`` opened, which also sets the new `user_version`.
  ///
  /// Version 0 is the layout before versions: retained values only, in the same table.
  private static func step(from version: Int32, _ database: SQLiteDatabase)
    throws(SQLiteFailure)
  {
    // Each step's SQL is written out rather than shared with `current`: a step must go on
    // doing what it did when `current` changes in a later version.
    switch version {
    case 0:
      try database.execute(
        """
        CREATE TABLE history (
          topic TEXT NOT NULL, sequence INTEGER NOT NULL, value BLOB NOT NULL,
          timestamp INTEGER NOT NULL, PRIMARY KEY (topic, sequence)) WITHOUT ROWID;
        CREATE TABLE epoch (id INTEGER NOT NULL, last_sequence INTEGER NOT NULL);
        """)
      try insertEpoch(into: database)
    default:
      preconditionFailure("no migration from schema version \(version)")
    }
  }

  /// Writes the epoch's one row, with a new random id and no sequence yet.
  static func insertEpoch(into database: SQLiteDatabase) throws(SQLiteFailure) {
    let statement = try database.prepare("INSERT INTO epoch (id, last_sequence) VALUES (?, 0)")
    try statement.bind(1, Int64(bitPattern: UInt64.random(in: 1...UInt64.max)))
    try statement.run()
  }

  /// Brings `database`, of schema `version`, to ``version``, one step and one transaction at a
  /// time, so that a failure leaves it at the last whole step.
  static func migrate(_ database: SQLiteDatabase, from version: Int32) throws(SQLiteFailure) {
    var version = version
    while version < self.version {
      try database.execute("BEGIN IMMEDIATE")
      do throws(SQLiteFailure) {
        try step(from: version, database)
        try database.execute("PRAGMA user_version = \(version + 1)")
        try database.execute("COMMIT")
      } catch {
        if database.inTransaction { try? database.execute("ROLLBACK") }
        throw error
      }
      version += 1
    }
  }
}
