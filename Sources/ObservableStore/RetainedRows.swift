/// The row id of every topic in the `retained` table, kept by the writer thread, so that a
/// retained value is written by its integer key instead of its name.
///
/// Keyed by name, the table took two B-tree searches of text keys per value (the conflict
/// check and the insert), each comparing records; by integer it takes one cheap search. The
/// names stay in the rows, for the load. One lookup per change also finds which changes a
/// later one of the same batch to the same topic supersedes.
///
/// A topic keeps its id until a clear of it commits: a clear that failed leaves its row in
/// the file, and the next value of the topic must replace that row rather than add a second.
/// An id given out in a transaction that failed names no row, which is harmless: the next
/// value inserts it, a clear deletes nothing.
struct RetainedRows {
  /// The id of a change that is not written: a later one of its batch to the same topic
  /// replaces it.
  static let superseded: Int64 = 0
  /// The id of a change that is not to a retained value (history), which every batch writes.
  static let unkeyed: Int64 = -1

  private struct Row {
    var id: Int64
    /// The batch that last named the topic, and where in it.
    var batch: UInt64
    var index: Int
  }

  private var rows: [String: Row]
  private var nextID: Int64
  /// Counts batches, so that a row's `batch` says whether this batch named it already; 64
  /// bits never wrap.
  private var batch: UInt64 = 0

  /// No rows yet: a new table, or one being loaded (``load(_:id:)``).
  init() {
    rows = [:]
    nextID = 1
  }

  /// Notes the row `id` of `stream` as the load reads it, in id order; new ids follow the
  /// highest. Whether the topic had a row already, which the writer never makes: the later
  /// row is the topic's.
  mutating func load(_ stream: String, id: Int64) -> Bool {
    nextID = max(nextID, id + 1)
    return rows.updateValue(Row(id: id, batch: 0, index: 0), forKey: stream) != nil
  }

  /// For each of `changes`, the row id to write a retained change with, ``superseded`` when
  /// a later change of the batch to the same topic replaces it (the transaction is seen whole
  /// or not at all, so the earlier could never be read back), or ``unkeyed``.
  mutating func plan(_ changes: [StoreChange]) -> [Int64] {
    batch += 1
    var ids = [Int64](repeating: Self.unkeyed, count: changes.count)
    for (index, change) in changes.enumerated() {
      let stream: String
      switch change {
      case .retain(let value): stream = value.stream
      case .clearRetained(let name): stream = name
      case .appendHistory, .forgetHistory: continue
      }
      // One lookup for a topic the table holds: the default-value subscript allocated a
      // closure for every change.
      if let slot = rows.index(forKey: stream) {
        let row = rows.values[slot]
        if row.batch == batch { ids[row.index] = Self.superseded }
        rows.values[slot] = Row(id: row.id, batch: batch, index: index)
        ids[index] = row.id
      } else {
        rows[stream] = Row(id: nextID, batch: batch, index: index)
        ids[index] = nextID
        nextID += 1
      }
    }
    return ids
  }

  /// Forgets the ids of `streams`, whose clears committed: their rows are gone.
  mutating func forget(_ streams: [String]) {
    for stream in streams { rows[stream] = nil }
  }
}
