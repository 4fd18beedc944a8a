import IndefiniteObservable

/// A stream the server exposes under a name: an ``IndefiniteObservable`` of encoded lines.
///
/// Every connect and every disconnect that actually runs is counted, so `stats` can show that
/// each subscription was disconnected exactly once.
public class NamedStream: IndefiniteObservable<StreamObserver>, @unchecked Sendable {
  // Unchecked: the base class only holds its immutable connect closure, and subclasses keep
  // their mutable state behind a mutex.

  /// The stream's name, or the pattern for a pattern subscription.
  public let name: String
  /// What produces the stream's values.
  public let kind: StreamKind

  init(
    name: String,
    kind: StreamKind,
    counters: ServerCounters,
    connect: @escaping Connect<StreamObserver>
  ) {
    self.name = name
    self.kind = kind
    super.init { observer in
      // Counted before connecting, so a value the stream sends while connecting (a `stats`
      // snapshot, say) already includes this subscription.
      counters.update {
        $0.subscribesTotal += 1
        $0.subscriptions += 1
      }
      let disconnect = connect(observer)
      return {
        disconnect()
        counters.update {
          $0.disconnectsTotal += 1
          $0.subscriptions -= 1
        }
      }
    }
  }
}
