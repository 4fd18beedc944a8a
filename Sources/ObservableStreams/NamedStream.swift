import IndefiniteObservable
import ObservableCounters

/// A stream the server exposes under a name: an ``IndefiniteObservable`` of encoded lines.
///
/// Every connect and every disconnect that actually runs is counted, so `stats` can show that
/// each subscription was disconnected exactly once.
package final class NamedStream: IndefiniteObservable<StreamObserver>, @unchecked Sendable {
  // Unchecked: the base class holds only its immutable connect closure, which is Sendable.

  /// The stream's name, or the pattern for a pattern subscription.
  package let name: String

  package init(
    name: String,
    counters: ServerCounters,
    connect: @escaping @Sendable (StreamObserver) -> @Sendable () -> Void
  ) {
    self.name = name
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

  /// The stream of a source: each subscription attaches an observer under a key of its own.
  package convenience init(source: any StreamSource, counters: ServerCounters) {
    self.init(name: source.name, counters: counters) { observer in
      let key = SubscriptionKey.next()
      source.attach(observer, key: key)
      return { source.detach(key: key) }
    }
  }
}
