/// When the store's writes reach the disk, like Redis's `appendfsync`: what `--fsync` sets.
///
/// The store runs SQLite in WAL mode. In every mode a committed transaction is in the
/// kernel's page cache, so a crash of the server alone (SIGKILL, an abort) loses no committed
/// change; what a mode decides is what a crash of the machine (power, a kernel panic) loses.
/// In every mode, changes still in the store's queue when the process dies are lost: at most
/// the queue's limit plus the batch being written. A clean close (SIGTERM) writes them all.
package enum FsyncMode: String, Sendable, CaseIterable {
  /// `synchronous=FULL`: every transaction's log is synced before its completions run, so a
  /// change whose completion ran survives a machine crash. With `always` the server replies
  /// to a retained publish only then; it loses nothing it acknowledged.
  case always
  /// `synchronous=NORMAL`: the log is synced only at checkpoints (every 1,000 pages, about
  /// 4 MiB of changes). A machine crash can roll back the transactions since the last
  /// checkpoint, about 4 MiB of the latest changes; the file stays consistent.
  case batch
  /// `synchronous=OFF`: the store never syncs and leaves it to the kernel (about 30 s of
  /// dirty pages on Linux). A machine crash can lose anything written since the kernel last
  /// wrote back and, SQLite warns, can leave the file corrupt, which the next start refuses.
  case off

  /// The `PRAGMA synchronous` value for this mode.
  var synchronousPragma: String {
    switch self {
    case .always: "FULL"
    case .batch: "NORMAL"
    case .off: "OFF"
    }
  }
}
