import ObservableStreams
import ObservableWire

/// The cluster as a session sees it: the requests a clustered server answers differently.
///
/// Retained values live in JetStream, so a clustered publish with `retain`, a `clear` and a
/// `list` are answered once the cluster has done them, and every publish must fit the
/// cluster's largest message. `ClusterLink` implements it (in `ObservableCluster`), so the
/// session names no cluster type, as ``StreamReplication`` spares the streams layer.
package protocol SessionCluster: AnyObject, Sendable {
  /// Whether a delivery line of `lineBytes` fits one NATS message; checked for every batched
  /// publish.
  func fits(lineBytes: Int) -> Bool

  /// Refuses a line of `lineBytes` that the cluster could not carry.
  func checkSize(lineBytes: Int) throws(ProtocolError)

  /// Whether the link to NATS is up now.
  var isConnected: Bool { get }

  /// Stores `value` as `topic`'s retained value, then calls `completion` from any thread with
  /// the number of receivers.
  func storeRetained(
    _ value: [UInt8], topic: String,
    completion: @escaping @Sendable (Result<Int, ProtocolError>) -> Void)

  /// Clears `topic`'s retained value, then calls `completion` from any thread with whether
  /// there was one.
  func clearRetained(
    _ topic: String, completion: @escaping @Sendable (Result<Bool, ProtocolError>) -> Void)

  /// The topics with a retained value that match `filter`, or nil when the cluster cannot
  /// tell; `completion` runs on any thread.
  func retainedTopics(
    matching filter: String?, completion: @escaping @Sendable ([String]?) -> Void)

  /// Whether the cluster keeps topic history (`--history` with `--cluster`).
  var keepsHistory: Bool { get }

  /// Subscribes `observer` to `name` (a name or a pattern) with a position on every delivery,
  /// the values after `since` (a position any node wrote) first; `reply` gets, from any
  /// thread and before any value, whether the history reached back to `since` (`nil`
  /// without it) or why there is no subscription. Returns what ends it.
  func subscribeWithPositions(
    _ name: String, isPattern: Bool, since: StreamPosition?, observer: StreamObserver,
    reply: @escaping @Sendable (Result<SubscriptionStart, ProtocolError>) -> Void
  ) -> @Sendable () -> Void

  /// Reads the last `limit` values of `name` (a name or a pattern) with their positions,
  /// oldest first; `completion` gets them and how many, from any thread.
  func readHistory(
    _ name: String, isPattern: Bool, limit: Int?,
    completion: @escaping @Sendable (Result<(lines: [UInt8], count: Int), ProtocolError>) -> Void)
}
