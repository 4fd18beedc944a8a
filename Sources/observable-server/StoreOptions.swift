import ArgumentParser
import ObservableServer

/// The flags of the store that keeps retained values across restarts.
struct StoreOptions: ParsableArguments {
  @Option(
    name: .customLong("data-dir"),
    help: ArgumentHelp(
      "Keep retained values in this directory (observable.sqlite3, made if missing) and load them at start; off by default.",
      valueName: "path"))
  var dataDirectory: String?

  @Option(
    name: .customLong("fsync"),
    help: ArgumentHelp(
      "With --data-dir: always: reply to a retained publish once it is on disk; batch: reply at once, sync at checkpoints (default); off: never sync.",
      valueName: "always|batch|off"))
  var fsync: String?

  func validate() throws {
    if let fsync, StoreConfiguration.Fsync(rawValue: fsync) == nil {
      throw ValidationError("--fsync \(fsync): expected always, batch or off")
    }
    if fsync != nil, dataDirectory == nil { throw ValidationError("--fsync needs --data-dir") }
    if dataDirectory == "" { throw ValidationError("--data-dir needs a path") }
  }

  /// Sets the configuration's store from the flags.
  func apply(to configuration: inout ServerConfiguration) {
    guard let dataDirectory else { return }
    configuration.store = StoreConfiguration(
      directory: dataDirectory, fsync: fsync.flatMap(StoreConfiguration.Fsync.init) ?? .batch)
  }
}
