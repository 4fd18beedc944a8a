import NATS
import ObservableWire

/// The part of the ``ClusterLink`` that connection threads touch too, behind its lock: the
/// NATS session (whose outbound buffer publishes append to), the interests and the counters.
package struct ClusterState {
  /// The NATS connection's protocol state.
  var session: NATSClientSession
  /// The NATS subscription of each local name (topic or pattern) and how many local
  /// subscriptions share it.
  var interests: [String: (count: Int, sid: UInt64)] = [:]
  /// What each NATS subscription carries, by sid.
  var targets: [UInt64: ClusterTarget] = [:]
  /// Whether a flush is already queued on the loop, so a burst of publishes wakes it once.
  var flushScheduled = false
  /// Bytes written but not yet taken by the socket, kept here so publishers can bound them.
  var unsentBytes = 0
  /// Bytes of retained values waiting for JetStream, bounded by
  /// ``ClusterLink/pendingStoreLimit``.
  var pendingStoreBytes = 0
  /// What the link has done, for `stats`.
  var counters = ClusterCounters()
  /// The topic published to last, which a publisher mostly uses again.
  var lastTopic = ""
  /// The live subject of `lastTopic`, kept so a publish builds no string.
  var lastSubject = ""

  /// Whether `sid` is the lowest of the NATS subscriptions whose name is or matches `topic`:
  /// NATS delivers a message once to each of them, and exactly one copy passes this test.
  /// It looks at every interest, so it serves the rare path of a rejected message only.
  func isFirstMatch(sid: UInt64, topic: String) -> Bool {
    !interests.contains { name, interest in
      interest.sid < sid && TopicPattern(name).matches(topic)
    }
  }
}

/// Which local subscribers a NATS subscription stands for.
package enum ClusterTarget: Sendable, Equatable {
  /// The direct subscribers of a topic.
  case topic(String)
  /// The subscribers of a pattern.
  case pattern(String)
}

/// The cluster's counters, for `stats` and `/metrics`.
package struct ClusterCounters: Sendable {
  /// Values delivered here that came from other nodes.
  package var valuesIn = 0
  /// Values sent to other nodes.
  package var valuesOut = 0
  /// Values not sent to other nodes: no NATS connection, a slow one, or too large.
  package var valuesDropped = 0
  /// Messages from NATS that were not valid delivery lines for their subject.
  package var valuesRejected = 0
  /// Retained values JetStream acknowledged.
  package var retainedStored = 0
  /// Retained publishes answered `unavailable`.
  package var retainedFailed = 0
  /// Connections lost, whatever the cause.
  var disconnects = 0
}
