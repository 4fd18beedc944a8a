import Locking
import Logging
import NATS
import ObservableLogging
import ObservablePOSIX
import ObservableStreams
import ObservableVersion
import Synchronization

/// The node's one connection to NATS, on one of the server's event loops: it carries live
/// values between nodes, the NATS subscriptions for local interest, and the JetStream calls
/// for retained values.
///
/// The link is what the rest of the server calls; each job is a type of its own: the socket
/// and its reconnections (``ClusterConnection``), the retained stream (``ClusterStream``),
/// storing retained values (``RetainedStore``), reading them back (``RetainedReader``,
/// ``ClusterReplays``). Interest and values for the other nodes are the link's own, as
/// connection threads call them on every publish. Connection threads publish into the
/// session's outbound buffer under the lock and queue one flush on the loop; everything else
/// (the socket, timers, replies) happens on the loop.
package final class ClusterLink: @unchecked Sendable {
  // Unchecked: `state` is behind its lock; `configuration`, `subjects`, `logger` and the jobs
  // are set in `init` and never changed; every other member is touched on the loop thread
  // only, as "Loop only" says.

  /// The configuration, from `--cluster` and its companions.
  let configuration: ClusterConfiguration
  /// The subjects and stream of the configured prefix.
  let subjects: ClusterSubjects
  /// Where the link logs connections, losses and JetStream trouble.
  let logger: Logger
  /// Where warnings clients can repeat at will (retained values not stored) are logged, at a
  /// bounded rate.
  let warnings: RepeatedWarnings
  /// The session, interests and counters that publishing threads share with the loop.
  let state: Locked<ClusterState>

  /// Bytes that may wait for a slow NATS server before values for other nodes are dropped.
  static let outboundLimit = 8 << 20

  /// Bytes of retained values that may wait for JetStream at once, over all clients: while it
  /// has no leader, retained publishes cannot pile up without bound.
  static let pendingStoreLimit = 64 << 20

  /// The current server's `max_payload`, read on every clustered publish without the lock.
  let maxPayload = Atomic<Int>(1_048_576)

  /// The socket to NATS and its reconnections, requests and replies.
  private(set) var connection: ClusterConnection!
  /// The JetStream stream of retained values.
  private(set) var stream: ClusterStream!
  /// Topic history in JetStream, with `--history`.
  private(set) var history: ClusterHistory?
  /// Retained publishes waiting for JetStream.
  private(set) var store: RetainedStore!
  /// Reads of retained values.
  private(set) var reader: RetainedReader!
  /// Replays of the retained values a filter matches.
  private(set) var replays: ClusterReplays!

  /// A link that connects once ``start(on:registry:)`` runs.
  package init(configuration: ClusterConfiguration, logger: Logger) {
    self.configuration = configuration
    self.subjects = ClusterSubjects(prefix: configuration.prefix)
    self.logger = logger
    warnings = RepeatedWarnings(logger: logger)
    let session = NATSClientSession(
      servers: configuration.servers,
      options: NATSConnectOptions(name: "observable-server", version: ReleaseVersion.current),
      pingInterval: configuration.pingInterval, maxPingsOut: configuration.maxPingsOut)
    state = Locked(ClusterState(session: session))
    connection = ClusterConnection(link: self)
    let subjects = subjects
    stream = ClusterStream(link: self, purpose: "retained") { replicas in
      JetStreamStreamConfig(
        name: subjects.stream, subjects: [subjects.retained + ".>"], maxMessagesPerSubject: 1,
        replicas: replicas, allowDirect: true)
    }
    history = configuration.history.map { ClusterHistory(link: self, settings: $0) }
    store = RetainedStore(link: self)
    reader = RetainedReader(link: self)
    replays = ClusterReplays(link: self)
  }

  // MARK: Loop only

  /// The loop the socket lives on; set by ``start(on:registry:)`` before any connection
  /// opens, and never changed, so other threads may read it.
  private(set) var loop: EventLoop?
  /// Where values from other nodes are delivered.
  var registry: StreamRegistry?
  /// The stored value whose live copy is being delivered now, for ``RetainedGate``.
  var inbound: (topic: String, sequence: UInt64)?

  /// Starts connecting, on `loop`, with values from other nodes going to `registry`.
  package func start(on loop: EventLoop, registry: StreamRegistry) {
    self.loop = loop
    warnings.reportOn(loop)
    loop.execute { [self] in
      self.registry = registry
      connection.start()
    }
  }

  /// Stops a debug build when loop-only code of the link runs off its loop.
  func assertOnLoop(file: StaticString = #fileID, line: UInt = #line) {
    #if DEBUG
      loop?.assertInLoop(file: file, line: line)
    #endif
  }

  /// Closes the connection and stops reconnecting; waits for the loop to do it.
  package func stop() {
    guard let loop else { return }
    try? loop.submitAndWait { [self] () throws(SystemError) in
      connection.stop()
      registry = nil
    }
  }
}
