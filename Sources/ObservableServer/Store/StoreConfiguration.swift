/// Where and how the server keeps retained values on disk (`--data-dir`, `--fsync`).
public struct StoreConfiguration: Sendable {
  /// When the store's writes reach the disk, like Redis's `appendfsync`.
  public enum Fsync: String, Sendable, CaseIterable {
    /// Every transaction is synced before the replies to its retained publishes go out: an
    /// acknowledged value survives a crash of the machine.
    case always
    /// Replies go out at once; transactions are synced at checkpoints. A crash of the server
    /// loses at most the changes still queued; a crash of the machine, also the last few MiB
    /// written since the last checkpoint.
    case batch
    /// Replies go out at once and the store never syncs: the kernel writes back when it likes.
    case off
  }

  /// The directory of the store's file, `observable.sqlite3`; made, owner-only, if missing.
  public var directory: String
  /// When writes reach the disk.
  public var fsync: Fsync
  /// How many changes may wait for the store's thread; past it, retained publishes answer
  /// `unavailable` until it catches up.
  public var queueLimit = 65_536

  /// A store in `directory`, synced as `fsync` says.
  public init(directory: String, fsync: Fsync = .batch) {
    self.directory = directory
    self.fsync = fsync
  }
}
