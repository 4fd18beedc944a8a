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
  static let version: Int32 = 3

  /// Version 3, for a new store: retained values keyed by an integer the writer gives each
  /// topic (``RetainedRows``; the name is in the row, unique by the writer's care rather
  /// than an index, which would be a second B-tree to write), history in sequence order
  /// (appends go to the end of its B-tree; evictions name the sequence), and the epoch's one
  /// row, with whether the last run closed the store cleanly.
  static let current = """
    CREATE TABLE retained (
      id INTEGER PRIMARY KEY NOT NULL, stream TEXT NOT NULL, value BLOB NOT NULL);
    CREATE TABLE history (
      sequence INTEGER PRIMARY KEY NOT NULL, topic TEXT NOT NULL, value BLOB NOT NULL,
      timestamp INTEGER NOT NULL);
    CREATE TABLE epoch (
      id INTEGER NOT NULL, last_sequence INTEGER NOT NULL, clean INTEGER NOT NULL);
    """

  /// Turns a store of schema `version` into `version + 1`, inside the transaction
  /// ``migrate(_:from:)`` opened, which also sets the new `user_version`.
  ///
  /// Version 0 is the layout before versions: retained values only, in the same table.
  /// Version 1 keyed history by topic and kept a 64-bit epoch that no position used.
  /// Version 2 keyed retained values by name, in a `WITHOUT ROWID` table.
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
        INSERT INTO epoch (id, last_sequence) VALUES (1, 0);
        """)
    case 1:
      // The epoch gets a new id: version 1's was never in a position a client holds.
      try database.execute(
        """
        CREATE TABLE retained_v2 (
          stream TEXT PRIMARY KEY NOT NULL, value BLOB NOT NULL) WITHOUT ROWID;
        INSERT INTO retained_v2 (stream, value) SELECT stream, value FROM retained;
        DROP TABLE retained;
        ALTER TABLE retained_v2 RENAME TO retained;
        CREATE TABLE history_v2 (
          sequence INTEGER PRIMARY KEY NOT NULL, topic TEXT NOT NULL, value BLOB NOT NULL,
          timestamp INTEGER NOT NULL);
        INSERT OR REPLACE INTO history_v2 (sequence, topic, value, timestamp)
          SELECT sequence, topic, value, timestamp FROM history ORDER BY sequence;
        DROP TABLE history;
        ALTER TABLE history_v2 RENAME TO history;
        ALTER TABLE epoch ADD COLUMN clean INTEGER NOT NULL DEFAULT 0;
        """)
      try database.execute("UPDATE epoch SET id = \(newEpochID())")
    case 2:
      try database.execute(
        """
        CREATE TABLE retained_v3 (
          id INTEGER PRIMARY KEY NOT NULL, stream TEXT NOT NULL, value BLOB NOT NULL);
        INSERT INTO retained_v3 (stream, value) SELECT stream, value FROM retained;
        DROP TABLE retained;
        ALTER TABLE retained_v3 RENAME TO retained;
        """)
    default:
      preconditionFailure("no migration from schema version \(version)")
    }
  }

  /// A new epoch: random, never 0, 32 bits, as a position spells it (8 hexadecimal digits).
  static func newEpochID() -> UInt32 {
    UInt32.random(in: 1...UInt32.max)
  }

  /// Writes the epoch's one row for a new store: a new id, no sequence yet, closed cleanly.
  static func insertEpoch(into database: SQLiteDatabase) throws(SQLiteFailure) {
    try database.execute(
      "INSERT INTO epoch (id, last_sequence, clean) VALUES (\(newEpochID()), 0, 1)")
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
