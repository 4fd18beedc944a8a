import Glibc
import Locking
import Logging
import ObservableCounters
import ObservableStore
import ObservableStreams

/// The topics' history on disk (`--data-dir` with `--history N`): every value the history
/// keeps and every one it evicts, handed to the store's queue under the history's lock, in
/// sequence order, and written by the store's thread in its batches.
///
/// A plain publish is never refused for the store's sake: when the queue is full (or a write
/// fails), the value stays in memory only, and the store marks the epoch broken, so that the
/// next run takes a new one and no client resumes past the gap. A lost eviction only leaves
/// an entry on disk that the next start evicts again.
final class HistoryPersistence: HistoryRecorder {
  private let store: ObservableStore
  private let counters: ServerCounters
  private let logger: Logger
  private let warned = Locked(false)

  /// Writes to `store`, counting failures in `counters`.
  init(store: ObservableStore, counters: ServerCounters, logger: Logger) {
    self.store = store
    self.counters = counters
    self.logger = logger
  }

  func recorded(_ lines: [[UInt8]], sequences: [UInt64], topic: String) {
    let timestamp = Self.wallClockMilliseconds()
    var changes: [StoreChange] = []
    changes.reserveCapacity(lines.count)
    for (line, sequence) in zip(lines, sequences) {
      changes.append(
        .appendHistory(
          HistoryEntry(topic: topic, sequence: sequence, value: line, timestamp: timestamp)))
    }
    guard store.enqueue(changes) != .queued else { return }
    counters.update { $0.storeWriteErrorsTotal += 1 }
    guard !warned.withLock({ $0 }) else { return }
    warned.withLock { $0 = true }
    logger.warning(
      "store queue full: history values kept in memory only; the next start takes a new epoch",
      metadata: ["path": "\(store.path)"])
  }

  func evicted(_ sequences: [UInt64]) {
    _ = store.enqueue(sequences.map { .forgetHistory(sequence: $0) })
  }

  /// The wall clock in milliseconds since the Unix epoch, as the store keeps a value's time.
  static func wallClockMilliseconds() -> Int64 {
    var now = timespec()
    clock_gettime(CLOCK_REALTIME, &now)
    return Int64(now.tv_sec) * 1000 + Int64(now.tv_nsec) / 1_000_000
  }
}
