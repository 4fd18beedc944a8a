import Logging
import ObservableStore

extension ObservableServer {
  /// The store's epoch (`--data-dir`), as 16 hexadecimal digits: made when the store's file
  /// was created, so that positions of one store are told from another's; `nil` without a
  /// store or before ``start()``.
  public var storeEpoch: String? {
    running.withLock { $0?.store }.map { Self.hex($0.epoch.id) }
  }

  /// Opens the configured store (made if missing), checks it and loads its retained values
  /// into the registry; `nil` without `--data-dir`. Runs before anything listens.
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
    logger.notice(
      "store loaded",
      metadata: [
        "path": "\(store.path)", "fsync": "\(settings.fsync.rawValue)",
        "retained": "\(contents.retained.count)", "epoch": "\(Self.hex(contents.epoch.id))",
        "ms": "\(Self.milliseconds(ContinuousClock.now - started))",
      ])
    return RetainedPersistence(
      store: store, epoch: contents.epoch, counters: counters, logger: logger)
  }

  private static func hex(_ id: UInt64) -> String {
    let digits = String(id, radix: 16)
    return String(repeating: "0", count: 16 - digits.count) + digits
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
