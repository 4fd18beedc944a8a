import Locking
import Logging
import ObservableCounters
import ObservableSession
import ObservableStore
import ObservableWire
import Synchronization

/// The server's retained values on disk: what sessions write through (``SessionStore``), over
/// an ``ObservableStore`` whose own thread commits them in batches.
///
/// A change is applied in memory first, then queued; the loop never waits for the disk. When
/// a write fails (a full disk) or finds the queue full, the topic's latest change is kept
/// here, and every retained publish and clear is refused with `unavailable`, nothing applied,
/// until those changes are written again (tried at most twice a second, when a retained
/// publish or clear comes); so memory and disk differ only by what is queued.
final class RetainedPersistence: SessionStore {
  /// The store's file.
  var path: String { store.path }
  /// Which store the positions of history belong to, made when the file was created.
  let epoch: StoreEpoch
  private let store: ObservableStore
  private let counters: ServerCounters
  private let logger: Logger
  private let state = Locked(State())
  /// Whether `unwritten` holds anything: written under the lock wherever it changes, read
  /// without it by the two checks every retained publish makes (``repliesWaitForDisk`` twice,
  /// ``checkAccepting()`` once), which took the lock three times a publish when nothing had
  /// failed, as nearly always.
  private let holdsUnwritten = Atomic<Bool>(false)

  private struct State {
    var nextSequence: UInt64 = 0
    /// Topics whose latest change could not be written, with that change.
    var unwritten: [String: Unwritten] = [:]
    /// Whether a rewrite of `unwritten` is queued.
    var rewriting = false
    var lastRewrite: ContinuousClock.Instant?
    var lastFailure = ""
  }

  /// A change that failed: the topic's retained line, or `nil` for a clear.
  private struct Unwritten {
    var sequence: UInt64
    var line: [UInt8]?
  }

  /// Writes through `store`, whose file's epoch is `epoch`, counting in `counters`.
  init(store: ObservableStore, epoch: StoreEpoch, counters: ServerCounters, logger: Logger) {
    self.store = store
    self.epoch = epoch
    self.counters = counters
    self.logger = logger
  }

  var repliesWaitForDisk: Bool {
    store.fsync == .always || holdsUnwritten.load(ordering: .acquiring)
  }

  func checkAccepting() throws(ProtocolError) {
    guard holdsUnwritten.load(ordering: .acquiring) else { return }
    let now = ContinuousClock.now
    let (rewrite, reason) = state.withLock { state -> ([String: Unwritten]?, String) in
      guard !state.unwritten.isEmpty else { return (nil, "") }
      let due = state.lastRewrite.map { now - $0 >= .milliseconds(500) } ?? true
      guard !state.rewriting, due else { return ([:], state.lastFailure) }
      state.rewriting = true
      state.lastRewrite = now
      return (state.unwritten, state.lastFailure)
    }
    guard let rewrite else { return }
    if !rewrite.isEmpty { self.rewrite(rewrite) }
    throw ProtocolError(
      .unavailable,
      "store \(store.path) cannot be written (\(reason)); retained publishes and clears are refused until it can"
    )
  }

  func write(
    _ line: [UInt8]?, topic: String,
    completion: (@Sendable (Result<Void, ProtocolError>) -> Void)?
  ) -> Bool {
    write([StoreWrite(line: line, topic: topic)], completion: completion)
  }

  func write(
    _ writes: [StoreWrite], completion: (@Sendable (Result<Void, ProtocolError>) -> Void)?
  ) -> Bool {
    let first = state.withLock { state in
      defer { state.nextSequence += UInt64(writes.count) }
      return state.nextSequence + 1
    }
    counters.update { $0.storeQueued += writes.count }
    let outcome = store.enqueue(writes.map { Self.change($0.line, topic: $0.topic) }) {
      [self] result in
      finished(writes, first: first, result)
      completion?(result.mapError { ProtocolError(.unavailable, $0.description) })
    }
    guard outcome == .queued else {
      counters.update {
        $0.storeQueued -= writes.count
        $0.storeWriteErrorsTotal += 1
      }
      for (offset, write) in writes.enumerated() {
        remember(
          write.topic, Unwritten(sequence: first + UInt64(offset), line: write.line),
          reason: "the write queue is full")
      }
      return false
    }
    return true
  }

  /// Writes what failed before, then everything queued, and closes the file; a clean
  /// shutdown loses nothing that was applied.
  func close() {
    let left = state.withLock { $0.unwritten }
    if !left.isEmpty { rewrite(left) }
    store.close()
    let lost = state.withLock { $0.unwritten.count }
    if lost > 0 {
      logger.error(
        "store closed with changes it could not write",
        metadata: ["path": "\(store.path)", "topics": "\(lost)"])
    }
  }

  /// Counts committed or failed `writes` (numbered from `first`), remembering them when they
  /// failed and forgetting older failures of their topics when they committed; on the writer
  /// thread, in queue order.
  private func finished(_ writes: [StoreWrite], first: UInt64, _ result: StoreWriteOutcome) {
    let batches = store.statistics.transactions
    counters.update {
      $0.storeQueued -= writes.count
      $0.storeBatchesTotal = batches
      if case .failure = result { $0.storeWriteErrorsTotal += 1 }
    }
    switch result {
    case .success:
      state.withLock { state in
        guard !state.unwritten.isEmpty else { return }
        for (offset, write) in writes.enumerated()
        where state.unwritten[write.topic].map({ $0.sequence <= first + UInt64(offset) }) == true {
          state.unwritten[write.topic] = nil
        }
        holdsUnwritten.store(!state.unwritten.isEmpty, ordering: .releasing)
      }
    case .failure(let error):
      for (offset, write) in writes.enumerated() {
        remember(
          write.topic, Unwritten(sequence: first + UInt64(offset), line: write.line),
          reason: "\(error)")
      }
    }
  }

  /// Keeps `change` of `topic` to write again, and logs the first failure of a run.
  private func remember(_ topic: String, _ change: Unwritten, reason: String) {
    let first = state.withLock { state in
      defer {
        state.unwritten[topic] = change
        state.lastFailure = reason
        holdsUnwritten.store(true, ordering: .releasing)
      }
      return state.unwritten.isEmpty
    }
    if first {
      logger.error(
        "store write failed; retained publishes are refused until it can write again",
        metadata: ["path": "\(store.path)", "reason": "\(reason)"])
    }
  }

  /// Queues the changes that failed, in one transaction; once it commits, those not changed
  /// since are forgotten and, when none is left, publishes are accepted again.
  private func rewrite(_ changes: [String: Unwritten]) {
    counters.update { $0.storeQueued += changes.count }
    let outcome = store.enqueue(changes.map { Self.change($0.value.line, topic: $0.key) }) {
      [self] result in
      let batches = store.statistics.transactions
      counters.update {
        $0.storeQueued -= changes.count
        $0.storeBatchesTotal = batches
        if case .failure = result { $0.storeWriteErrorsTotal += 1 }
      }
      let recovered = state.withLock { state in
        state.rewriting = false
        guard case .success = result else { return false }
        for (topic, change) in changes where state.unwritten[topic]?.sequence == change.sequence {
          state.unwritten[topic] = nil
        }
        holdsUnwritten.store(!state.unwritten.isEmpty, ordering: .releasing)
        return state.unwritten.isEmpty
      }
      if recovered { logger.notice("store writes again", metadata: ["path": "\(store.path)"]) }
    }
    if outcome != .queued {
      counters.update { $0.storeQueued -= changes.count }
      state.withLock { $0.rewriting = false }
    }
  }

  private static func change(_ line: [UInt8]?, topic: String) -> StoreChange {
    line.map { .retain(RetainedValue(stream: topic, value: $0)) } ?? .clearRetained(stream: topic)
  }
}
