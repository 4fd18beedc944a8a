import Locking
import ObservablePOSIX

/// The server's store on disk (`--data-dir`): retained values, topic history and the epoch,
/// in one SQLite file, written by one thread of its own.
///
/// The server opens it before it listens (``open(directory:fsync:queueLimit:)`` returns
/// everything the file holds) and, from then on, hands it changes with
/// ``enqueue(_:completion:)``, which never blocks: an event loop enqueues and goes on. The
/// writer thread takes everything queued at once and commits it as one transaction, so a burst
/// of publishes costs a few transactions, not one each. Each group of changes has a
/// completion that runs on the writer thread once its transaction committed (and, with
/// ``FsyncMode/always``, reached the disk) or failed; a server hops back to its loop there.
///
/// What each ``FsyncMode`` can lose is said there. A clean ``close()`` writes everything
/// queued first, so a SIGTERM loses nothing in any mode.
///
/// The epoch (``StoreEpoch``) is kept across a clean close and made anew after any other end
/// (a SIGKILL, a crash, a history value that could not be queued or written), so that
/// positions resume across a restart only when no value delivered with one can be missing.
package final class ObservableStore: Sendable {
  /// The store's file.
  package let path: String
  /// When writes reach the disk.
  package let fsync: FsyncMode
  private let queue: WriteQueue
  private let writer: Locked<LoopThread?>
  private let counts = SharedStatistics()

  /// Opens, or creates, the store in `directory` (made, owner-only, if missing), checks it,
  /// migrates an older schema and loads what it holds; then starts the writer thread.
  ///
  /// `queueLimit` bounds the changes waiting for the writer (the batch being written aside)
  /// and `queueBytes` what they hold; beyond either, ``enqueue(_:completion:)`` answers
  /// ``EnqueueOutcome/full``, so memory stays bounded however far the disk falls behind.
  ///
  /// - Throws: ``StoreError`` naming the file when it cannot be opened, is damaged, belongs to
  ///   another program or to a newer server. A file that fails a check is never changed.
  package static func open(
    directory: String, fsync: FsyncMode = .always, queueLimit: Int = 65_536,
    queueBytes: Int = 64 << 20
  ) throws(StoreError) -> (store: ObservableStore, contents: StoreContents) {
    let (database, contents, rows) = try StoreFile.open(directory: directory, fsync: fsync)
    do {
      let writer = try BatchWriter(
        database: database, lastSequence: contents.epoch.lastSequence, rows: rows)
      let queue = try WriteQueue(limit: queueLimit, byteLimit: queueBytes)
      let store = ObservableStore(path: database.path, fsync: fsync, queue: queue)
      try store.start(writer)
      return (store, contents)
    } catch let failure as SQLiteFailure {
      throw .opening(database.path, failure)
    } catch {
      throw .unreadable(path: database.path, reason: "cannot start the writer: \(error)")
    }
  }

  private init(path: String, fsync: FsyncMode, queue: WriteQueue) {
    self.path = path
    self.fsync = fsync
    self.queue = queue
    writer = Locked(nil)
  }

  deinit {
    close()
  }

  /// Queues `changes` for the next transaction, at once and without blocking. `completion`,
  /// if any, runs on the writer thread when they are committed (durable with `always`) or
  /// failed; it runs only when the outcome is ``EnqueueOutcome/queued``.
  @discardableResult
  package func enqueue(
    _ changes: [StoreChange], completion: (@Sendable (StoreWriteOutcome) -> Void)? = nil
  ) -> EnqueueOutcome {
    let outcome = queue.enqueue(changes, completion: completion)
    if outcome != .queued, changes.contains(where: \.appendsHistory) {
      counts.breakContinuity()
    }
    return outcome
  }

  /// Whether every history value handed to the store so far was queued and written: when not,
  /// the close leaves the store marked unclean and the next run takes a new epoch.
  package var keptContinuity: Bool { counts.current.keptContinuity }

  /// Marks this run's positions as not continued by the next: it takes a new epoch, as after a
  /// lost history value. For a server that keeps no history while the store holds one.
  package func breakContinuity() {
    counts.breakContinuity()
  }

  /// What the writer has done so far.
  package var statistics: StoreStatistics { counts.current }

  /// Writes everything queued, stops the writer thread and closes the file, which leaves a
  /// checkpointed file and no log beside it. Later enqueues answer ``EnqueueOutcome/closed``.
  /// Waits for the writer; safe to call more than once and from any thread but the writer's.
  package func close() {
    queue.close()
    let thread = writer.withLock { thread in
      defer { thread = nil }
      return thread
    }
    thread?.join()
  }

  private func start(_ batches: BatchWriter) throws(SystemError) {
    let (queue, counts, path) = (self.queue, self.counts, self.path)
    let thread = try LoopThread.start(name: "store-writer") {
      while let taken = queue.take() {
        Self.write(taken, with: batches, path: path, counts: counts)
      }
      batches.close(continuous: counts.current.keptContinuity)
    }
    writer.withLock { $0 = thread }
  }

  /// Commits `taken` as one transaction and runs its completions. When that fails and it held
  /// several groups, each is tried in a transaction of its own, so that one group's failure
  /// (a value too big for the space left on the disk) is not every caller's.
  private static func write(
    _ taken: [WriteQueue.Pending], with batches: BatchWriter, path: String,
    counts: SharedStatistics
  ) {
    let all = taken.count == 1 ? taken[0].changes : taken.flatMap(\.changes)
    guard let failure = commit(all, with: batches, counts: counts) else {
      for pending in taken { pending.completion?(.success(())) }
      return
    }
    // Retried one group at a time below; whatever history fails there is lost.
    guard taken.count > 1 else {
      if all.contains(where: \.appendsHistory) { counts.breakContinuity() }
      taken[0].completion?(.failure(.unavailable(path: path, reason: failure.description)))
      return
    }
    for pending in taken {
      let outcome: StoreWriteOutcome =
        commit(pending.changes, with: batches, counts: counts).map {
          if pending.changes.contains(where: \.appendsHistory) { counts.breakContinuity() }
          return .failure(.unavailable(path: path, reason: $0.description))
        } ?? .success(())
      pending.completion?(outcome)
    }
  }

  /// Commits `changes` in one transaction; why it failed, or `nil` when it committed.
  private static func commit(
    _ changes: [StoreChange], with batches: BatchWriter, counts: SharedStatistics
  ) -> SQLiteFailure? {
    do throws(SQLiteFailure) {
      try batches.write(changes)
      counts.committed(changes.count)
      return nil
    } catch {
      counts.failed(error.description)
      return error
    }
  }
}
