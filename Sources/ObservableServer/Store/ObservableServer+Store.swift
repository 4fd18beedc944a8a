import Logging
import ObservableStore
import ObservableStreams

extension ObservableServer {
  /// The store's epoch (`--data-dir`), as 8 hexadecimal digits, the epoch of this run's
  /// positions: kept across clean restarts, new after a crash or a new store; `nil` without a
  /// store or before ``start()``.
  public var storeEpoch: String? {
    running.withLock { $0?.store }.map { Self.hex($0.epoch.id) }
  }

  /// Opens the configured store (made if missing), checks it and loads its retained values
  /// and history into the registry; `nil` without `--data-dir`. Runs before anything listens.
  ///
  /// - Throws: ``StoreStartFailure`` naming the file; nothing of the store stays open then.
  func openStore() throws(StoreStartFailure) -> RetainedPersistence? {
    guard let settings = configuration.store else { return nil }
    let started = ContinuousClock.now
    let opened: (store: ObservableStore, contents: StoreContents)
    do {
      opened = try ObservableStore.open(
        directory: settings.directory, fsync: settings.fsync.mode,
        queueLimit: settings.queueLimit)
    } catch {
      throw StoreStartFailure(error)
    }
    let (store, contents) = opened
    for value in contents.retained {
      do {
        guard value.value.last == UInt8(ascii: "\n") else {
          throw UnloadableValue("its line does not end")
        }
        try registry.restoreRetained(value.value, to: value.stream)
      } catch {
        store.close()
        throw StoreStartFailure(
          path: store.path, refusing: "the retained value of \(value.stream): \(error)")
      }
    }
    do {
      try restoreHistory(contents, store: store)
    } catch {
      store.close()
      throw StoreStartFailure(path: store.path, refusing: "a history value: \(error)")
    }
    logger.notice(
      "store loaded",
      metadata: [
        "path": "\(store.path)", "fsync": "\(settings.fsync.rawValue)",
        "retained": "\(contents.retained.count)", "history": "\(contents.history.count)",
        "epoch": "\(Self.hex(contents.epoch.id))",
        "epoch_continued": "\(contents.epoch.continued)",
        "ms": "\(Self.milliseconds(ContinuousClock.now - started))",
      ])
    return RetainedPersistence(
      store: store, epoch: contents.epoch, counters: counters, logger: logger)
  }

  /// Fills the history with the store's and has it write through from now on. Without
  /// `--history`, values published now are in no history, so positions of the store's epoch
  /// cannot resume past them: the next run takes a new epoch.
  private func restoreHistory(_ contents: StoreContents, store: ObservableStore) throws {
    guard let history = registry.history else { return store.breakContinuity() }
    let now = HistoryPersistence.wallClockMilliseconds()
    var values: [RestoredHistoryValue] = []
    values.reserveCapacity(contents.history.count)
    for entry in contents.history {
      guard entry.value.last == UInt8(ascii: "\n") else {
        throw UnloadableValue("the line at \(entry.sequence) of \(entry.topic) does not end")
      }
      values.append(
        RestoredHistoryValue(
          topic: entry.topic, sequence: entry.sequence, line: entry.value,
          age: .milliseconds(max(0, now - entry.timestamp))))
    }
    history.restore(
      values, epoch: contents.epoch.id, lastSequence: contents.epoch.lastSequence,
      retained: contents.retained.map { ($0.stream, $0.value) },
      recorder: HistoryPersistence(store: store, counters: counters, logger: logger))
  }

  private static func hex(_ id: UInt32) -> String {
    let digits = String(id, radix: 16)
    return String(repeating: "0", count: 8 - digits.count) + digits
  }

  private static func milliseconds(_ duration: Duration) -> Int64 {
    duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000
  }
}

/// A reason a stored value is refused, for the start's error message.
private struct UnloadableValue: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}

extension StoreConfiguration.Fsync {
  /// The store's mode of the same name.
  var mode: FsyncMode {
    switch self {
    case .always: .always
    case .batch: .batch
    case .off: .off
    }
  }
}
