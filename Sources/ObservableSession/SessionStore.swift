import ObservableWire

/// The disk store as a session sees it (`--data-dir`): where retained publishes and clears
/// are written, off the loop, by the store's own thread.
///
/// `ObservableServer` implements it over `ObservableStore`, so the session names no store
/// type and makes no system call, as ``SessionCluster`` spares it the cluster.
package protocol SessionStore: AnyObject, Sendable {
  /// Whether the reply to a retained publish or a clear waits until its change is durable:
  /// with `--fsync always`, and in every mode while the store is recovering from a failed
  /// write.
  var repliesWaitForDisk: Bool { get }

  /// Refuses a change now, before anything is applied, when the store cannot take it: a
  /// write failed and has not been redone yet, or its queue is full.
  func checkAccepting() throws(ProtocolError)

  /// Writes `line` (a whole delivery line) as `topic`'s retained value, or forgets the
  /// topic's value when `line` is `nil`. `completion`, if given, runs on any thread once the
  /// change is durable (as `--fsync` means it) or has failed with `unavailable`. Returns
  /// `false`, and never calls `completion`, when the change could not even be queued.
  func write(
    _ line: [UInt8]?, topic: String,
    completion: (@Sendable (Result<Void, ProtocolError>) -> Void)?
  ) -> Bool

  /// Writes `writes` together, in one transaction, in their order: what one read's retained
  /// publishes and clears hand the store, so that a pipelining client's values share a
  /// hand-off, a transaction and, with `--fsync always`, one sync. `completion` and the
  /// result as for a single write.
  func write(
    _ writes: [StoreWrite], completion: (@Sendable (Result<Void, ProtocolError>) -> Void)?
  ) -> Bool
}

/// One retained change for the store: `topic`'s new retained line, or a clear when `nil`.
package struct StoreWrite: Sendable {
  /// The whole delivery line to retain, or `nil` to forget the topic's value.
  package var line: [UInt8]?
  /// The topic's concrete name.
  package var topic: String

  package init(line: [UInt8]?, topic: String) {
    self.line = line
    self.topic = topic
  }
}
