/// One change to the store, enqueued by the server and written by the store's writer thread.
package enum StoreChange: Sendable, Equatable {
  /// Keeps `value` as the topic's retained value, replacing any previous one.
  case retain(RetainedValue)
  /// Forgets the retained value of the topic named; nothing when it had none.
  case clearRetained(stream: String)
  /// Adds an entry to a topic's history (replacing one at the same position) and raises the
  /// epoch's last sequence to the entry's when it is higher.
  case appendHistory(HistoryEntry)
  /// Forgets the history entry at position `sequence`, as a bounded history drops its
  /// oldest; nothing when there is none.
  case forgetHistory(sequence: UInt64)

  /// About what the change holds in memory while queued, for the queue's byte limit.
  var bytes: Int {
    switch self {
    case .retain(let value): value.stream.utf8.count + value.value.count + 64
    case .clearRetained(let stream): stream.utf8.count + 64
    case .appendHistory(let entry): entry.topic.utf8.count + entry.value.count + 80
    case .forgetHistory: 32
    }
  }

  /// Whether it adds a value to the history: losing one breaks the epoch's continuity.
  var appendsHistory: Bool {
    if case .appendHistory = self { return true }
    return false
  }
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
