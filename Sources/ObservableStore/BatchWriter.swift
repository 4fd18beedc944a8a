/// Writes batches of changes to the store's file, one transaction per batch, with statements
/// prepared once.
///
/// Made on the opening thread, then used by the writer thread alone: `@unchecked Sendable` for
/// that one hand-over.
final class BatchWriter: @unchecked Sendable {
  private let database: SQLiteDatabase
  private let retain: SQLiteStatement
  /// ``retain`` for several rows at once: one statement for each of ``rowsPerStatement``,
  /// most first.
  private let retainMany: [SQLiteStatement]
  private let clear: SQLiteStatement
  private let append: SQLiteStatement
  private let forget: SQLiteStatement
  private let advance: SQLiteStatement
  private let begin: SQLiteStatement
  private let commit: SQLiteStatement
  /// The epoch's last sequence as committed.
  private var lastSequence: UInt64
  /// The `retained` table's row of each topic.
  private var rows: RetainedRows
  /// Where the names and values of a statement run of many rows are bound from, kept from
  /// one run to the next for its capacity.
  private var scratch: [UInt8] = []

  /// A writer for `database`, whose epoch's last sequence is `lastSequence` and whose
  /// `retained` table holds the topics of `rows`.
  init(database: SQLiteDatabase, lastSequence: UInt64, rows: RetainedRows)
    throws(SQLiteFailure)
  {
    self.database = database
    self.lastSequence = lastSequence
    self.rows = rows
    // A replace rather than an upsert (`ON CONFLICT … DO UPDATE`): the same row in the end,
    // since the table has no other index or trigger, for fewer of SQLite's instructions per
    // value (Docs/operations.md, the store's figures).
    let insert = "INSERT OR REPLACE INTO retained (id, stream, value) VALUES (?, ?, ?)"
    retain = try database.prepare(insert)
    // Each statement run has a cost of its own (opening the table, ending the statement) that
    // was a third of SQLite's work on a row; one run for many rows shares it.
    var retainMany: [SQLiteStatement] = []
    for rows in Self.rowsPerStatement {
      retainMany.append(
        try database.prepare(insert + String(repeating: ", (?, ?, ?)", count: rows - 1)))
    }
    self.retainMany = retainMany
    clear = try database.prepare("DELETE FROM retained WHERE id = ?")
    append = try database.prepare(
      "INSERT OR REPLACE INTO history (sequence, topic, value, timestamp) VALUES (?, ?, ?, ?)")
    forget = try database.prepare("DELETE FROM history WHERE sequence = ?")
    advance = try database.prepare("UPDATE epoch SET last_sequence = ?")
    // Prepared like the rest rather than parsed again for every transaction.
    begin = try database.prepare("BEGIN")
    commit = try database.prepare("COMMIT")
  }

  /// How many retained values each of ``retainMany`` writes in one run. A transaction of a
  /// few values (what the writer takes while it keeps up with one pipelining client in
  /// `batch` and `off`) shares runs too.
  static let rowsPerStatement = [32, 8, 4]

  /// Writes `changes` in one transaction: all of them, or, when it throws, none.
  ///
  /// Of several retained changes (``StoreChange/retain(_:)``, ``StoreChange/clearRetained(stream:)``)
  /// to one topic, only the last is written: the transaction is seen whole or not at all, so
  /// the ones before it could never be read back. A busy topic then costs one row per
  /// transaction, however many times it was published meanwhile.
  func write(_ changes: [StoreChange]) throws(SQLiteFailure) {
    let ids = rows.plan(changes)
    var cleared: [String] = []
    try begin.run()
    do throws(SQLiteFailure) {
      var highest = lastSequence
      // Retained values go last, many rows a statement: each topic has at most one change
      // left here, so no two of them, and none of them and another change, touch one row.
      var retained: [(id: Int64, value: RetainedValue)] = []
      // Grown a doubling at a time, it was copied about once per value.
      retained.reserveCapacity(changes.count)
      for (index, change) in changes.enumerated() where ids[index] != RetainedRows.superseded {
        if case .retain(let value) = change {
          retained.append((ids[index], value))
        } else {
          try write(change, id: ids[index], highest: &highest, cleared: &cleared)
        }
      }
      try write(retained)
      if highest > lastSequence {
        try advance.bind(1, Int64(bitPattern: highest))
        try advance.run()
      }
      try commit.run()
      lastSequence = highest
      rows.forget(cleared)
    } catch {
      // SQLite rolls some failures back by itself (a full disk may); the rest are ours to.
      if database.inTransaction { try? database.execute("ROLLBACK") }
      throw error
    }
  }

  /// Marks the store closed cleanly when `continuous` (every history value reached it, so the
  /// next run keeps the epoch), synced whatever the mode, then closes the database, which
  /// checkpoints its log into the file.
  func close(continuous: Bool) {
    if continuous {
      // Synced in every mode, like the checkpoint after it: a clean mark must never reach
      // the disk before the changes it vouches for.
      try? database.execute("PRAGMA synchronous = FULL")
      try? database.execute("UPDATE epoch SET clean = 1")
    }
    database.close()
  }

  /// Writes `retained`, each value as its row: as many rows a statement as
  /// ``rowsPerStatement`` allows, the rest one at a time.
  private func write(_ retained: [(id: Int64, value: RetainedValue)]) throws(SQLiteFailure) {
    var start = 0
    for (rows, statement) in zip(Self.rowsPerStatement, retainMany) {
      while retained.count - start >= rows {
        try statement.run(rows: retained[start..<start + rows], scratch: &scratch)
        start += rows
      }
    }
    for (id, value) in retained[start...] {
      try retain.run(id: id, text: value.stream, bytes: value.value)
    }
  }

  /// Writes `change`, a retained one as row `id`; raises `highest` to a history entry's
  /// sequence and adds a cleared topic to `cleared`.
  private func write(
    _ change: StoreChange, id: Int64, highest: inout UInt64, cleared: inout [String]
  ) throws(SQLiteFailure) {
    switch change {
    case .retain(let value):
      try write([(id, value)])
    case .clearRetained(let stream):
      try clear.bind(1, id)
      try clear.run()
      cleared.append(stream)
    case .appendHistory(let entry):
      try append.bind(1, Int64(bitPattern: entry.sequence))
      try append.bind(2, entry.topic)
      try append.bind(3, entry.value)
      try append.bind(4, entry.timestamp)
      try append.run()
      highest = max(highest, entry.sequence)
    case .forgetHistory(let sequence):
      try forget.bind(1, Int64(bitPattern: sequence))
      try forget.run()
    }
  }
}
