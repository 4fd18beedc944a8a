import ObservableStreams
import ObservableWire

/// The registry's side of clustering: subscriptions that wait for retained values from
/// JetStream, and values from other nodes.
extension StreamRegistry {
  /// A topic or pattern stream whose subscriptions also hold NATS interest and get their
  /// retained values from JetStream before live ones.
  func clusteredStream(named name: String, isPattern: Bool, link: ClusterLink) -> NamedStream {
    NamedStream(name: name, counters: counters) { [self] observer in
      let key = SubscriptionKey.next()
      let gate = RetainedGate(
        name: name, isPattern: isPattern, observer: observer,
        inbound: { link.currentInbound() })
      if isPattern {
        attachPattern(name, gate.relay, key: key)
      } else {
        attachDirect(name, gate.relay, key: key)
      }
      link.addInterest(name, isPattern: isPattern)
      link.fetchRetained(for: gate)
      return {
        if isPattern {
          self.detachPattern(name, key: key)
        } else {
          self.detachDirect(name, key: key)
        }
        link.removeInterest(name)
      }
    }
  }

  /// Delivers `count` lines of `topic` from another node to the local subscribers `target`
  /// stands for: each local subscription gets a value through exactly one NATS subscription.
  func deliverFromCluster(_ lines: [UInt8], count: Int, topic: String, to target: ClusterTarget) {
    let receivers: Int
    switch target {
    case .topic:
      receivers = topics.withLock { $0.topics[topic] }?.deliverDirect(lines) ?? 0
    case .pattern(let pattern):
      receivers = topics.withLock { $0.deliverToPattern(lines, name: topic, pattern: pattern) }
    }
    counters.update { $0.deliveredTotal += count * receivers }
  }

  /// Delivers one line of `topic` to this node's subscribers only; returns how many.
  func deliverLocally(_ line: [UInt8], topic: String) -> Int {
    var lastTopic: Topic?
    return deliverLocally(line, count: 1, to: topic, retain: false, lastTopic: &lastTopic)
      .receivers
  }
}
