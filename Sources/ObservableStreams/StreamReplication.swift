/// What copies a registry's values to other nodes and brings theirs back (the cluster).
///
/// Declared here and implemented above, so that the streams layer never names the cluster:
/// the registry asks it for the stream of a subscription, and hands it what it delivers.
package protocol StreamReplication: AnyObject, Sendable {
  /// The stream to subscribe to for `name` (a pattern when `isPattern`) on a replicated
  /// registry: its subscriptions also hold interest on other nodes and get their retained
  /// values before live ones.
  func stream(named name: String, isPattern: Bool, in registry: StreamRegistry) -> NamedStream

  /// Sends `count` lines of `topic`, just delivered here, to the other nodes. Called on the
  /// publish path, from the publisher's thread.
  func forward(_ lines: [UInt8], count: Int, topic: String)

  /// The replication's state as a JSON object, appended to the `stats` value.
  func statusJSON() -> String
}
