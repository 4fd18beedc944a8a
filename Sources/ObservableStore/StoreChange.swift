/// One change to the store, enqueued by the server and written by the store's writer thread.
package enum StoreChange: Sendable, Equatable {
  /// Keeps `value` as the topic's retained value, replacing any previous one.
  case retain(RetainedValue)
  /// Forgets the retained value of the topic named; nothing when it had none.
  case clearRetained(stream: String)
  /// Adds an entry to a topic's history (replacing one at the same position) and raises the
  /// epoch's last sequence to the entry's when it is higher.
  case appendHistory(HistoryEntry)
  /// Forgets a topic's history entries up to and including position `through`, as a
  /// bounded history drops its oldest.
  case trimHistory(topic: String, through: UInt64)
}

/// What ``ObservableStore/enqueue(_:completion:)`` did with the changes, at once.
package enum EnqueueOutcome: Sendable, Equatable {
  /// Queued; the completion runs on the writer thread once they are committed or failed.
  case queued
  /// The queue holds as many changes as its limit allows: nothing was queued and the
  /// completion will not run. The server answers a retained publish with `unavailable`.
  case full
  /// The store is closed: nothing was queued and the completion will not run.
  case closed
}

/// What the writer did with a batch: `.success` once committed (and, with
/// ``FsyncMode/always``, durable), or the ``StoreError/unavailable(path:reason:)`` it failed
/// with, after which none of the batch's changes are in the store.
package typealias StoreWriteOutcome = Result<Void, StoreError>
