import ObservableStore

/// Why the server cannot start on its store: the file cannot be opened, fails a check, or
/// holds what this server cannot load. The message names the file; the server exits with
/// ``exitStatus`` and never starts half-loaded.
public struct StoreStartFailure: Error, Sendable, CustomStringConvertible {
  /// What is wrong, naming the file.
  public let description: String
  /// 65 (`EX_DATAERR`) when the file is damaged, another program's, of a newer schema or
  /// holds values this server refuses: restarting will not help, the file needs a look. 74
  /// (`EX_IOERR`) when it cannot be read, written or created: permissions, a read-only or
  /// full file system, another server holding it.
  public let exitStatus: Int32

  /// The failure for `error`, from opening the store.
  init(_ error: StoreError) {
    description = error.description
    switch error {
    case .corrupt, .foreign, .newerSchema: exitStatus = 65
    case .unreadable, .unavailable, .closed: exitStatus = 74
    }
  }

  /// A store that opened but holds something this server refuses to load.
  init(path: String, refusing reason: String) {
    description = "store \(path) cannot be loaded: \(reason); it was left untouched"
    exitStatus = 65
  }
}
