import CLinux
import Glibc
import Locking
import Logging
import NATS
import ObservableLogging
import ObservablePOSIX
import ObservableStreams
import Synchronization

/// The node's one connection to NATS, on one of the server's event loops: it carries live
/// values between nodes, the NATS subscriptions for local interest, and the JetStream calls
/// for retained values.
///
/// Connection threads publish into the session's outbound buffer under the lock and queue one
/// flush on the loop; everything else (the socket, timers, replies) happens on the loop.
final class ClusterLink: ReadinessHandler, @unchecked Sendable {
  // Unchecked: `state` is behind its lock and `configuration`, `subjects` and `logger` are
  // immutable; every other member is touched on the loop thread only, as "Loop only" says.

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

  /// A link that connects once ``start(on:registry:)`` runs.
  init(configuration: ClusterConfiguration, logger: Logger) {
    self.configuration = configuration
    self.subjects = ClusterSubjects(prefix: configuration.prefix)
    self.logger = logger
    warnings = RepeatedWarnings(logger: logger)
    let session = NATSClientSession(
      servers: configuration.servers,
      options: NATSConnectOptions(name: "observable-server", version: ObservableServer.version),
      pingInterval: configuration.pingInterval, maxPingsOut: configuration.maxPingsOut)
    state = Locked(ClusterState(session: session))
  }

  // MARK: Loop only

  /// The loop the socket lives on; set by ``start(on:registry:)`` before any connection
  /// opens, and never changed, so other threads may read it.
  private(set) var loop: EventLoop?
  /// Where values from other nodes are delivered.
  var registry: StreamRegistry?
  /// The NATS socket, or -1 between connections.
  var descriptor: Int32 = -1
  var watchingWritable = false
  private var writeBuffer: [UInt8] = []
  private var writeOffset = 0
  private var tickTimer: LoopTimer?
  var reconnectTimer: LoopTimer?
  /// Set by ``stop()``: nothing reconnects or retries after it.
  var stopped = false
  /// The stored value whose live copy is being delivered now, for ``RetainedGate``.
  var inbound: (topic: String, sequence: UInt64)?
  /// What to do with each request's reply.
  var replies: [NATSRequestID: (Result<NATSMessage, NATSRequestError>) -> Void] = [:]
  /// Replays of a pattern's retained values, by the sid of their deliver subject.
  var replays: [UInt64: ClusterReplay] = [:]
  /// Whether the retained stream exists with our configuration.
  var streamReady = false
  /// The number of the last replay, which makes its deliver subject unique.
  var nextReplay = 0
  /// Retained publishes started, for their `Nats-Msg-Id`.
  var storesStarted = 0
  var random = SystemRandomNumberGenerator()
  let policy = NATSReconnectPolicy(
    initialDelay: .milliseconds(100), maxDelay: .seconds(5), jitter: 0.3)

  /// Starts connecting, on `loop`, with values from other nodes going to `registry`.
  func start(on loop: EventLoop, registry: StreamRegistry) {
    self.loop = loop
    warnings.reportOn(loop)
    loop.execute { [self] in
      self.registry = registry
      scheduleTick()
      connectNext()
    }
  }

  /// Stops a debug build when loop-only code of the link runs off its loop.
  func assertOnLoop(file: StaticString = #fileID, line: UInt = #line) {
    #if DEBUG
      loop?.assertInLoop(file: file, line: line)
    #endif
  }

  /// Closes the connection and stops reconnecting; waits for the loop to do it.
  func stop() {
    guard let loop else { return }
    try? loop.submitAndWait { [self] () throws(SystemError) in
      stopped = true
      closeSocket()
      if let tickTimer { loop.cancel(tickTimer) }
      if let reconnectTimer { loop.cancel(reconnectTimer) }
      registry = nil
    }
  }

  private func scheduleTick() {
    tickTimer = loop?.schedule(in: .milliseconds(200)) { [self] in
      guard !stopped else { return }
      // A PONG that came while the loop was held up must be read before the session judges
      // the server silent, so that a busy loop does not make a false failover.
      if descriptor >= 0 { readAvailable() }
      var events: [NATSSessionEvent] = []
      state.withLock { $0.session.tick(now: .now, events: &events) }
      handle(events)
      flush()
      scheduleTick()
    }
  }

  func descriptorReady(_ events: UInt32) {
    assertOnLoop()
    guard descriptor >= 0 else { return }
    if events & (EPOLLIN.rawValue | EPOLLRDHUP.rawValue | EPOLLHUP.rawValue | EPOLLERR.rawValue)
      != 0
    {
      readAvailable()
    }
    if descriptor >= 0 { flush() }
  }

  private func readAvailable() {
    guard let loop else { return }
    let buffer = loop.readBuffer
    let outcome: IOResult<Int>
    do {
      outcome = try SocketCalls.read(descriptor, into: buffer)
    } catch {
      return connectionLost("\(error)")
    }
    guard case .done(let count) = outcome else { return }
    guard count > 0 else { return connectionLost("closed by the NATS server") }
    var events: [NATSSessionEvent] = []
    let received = state.withLock { state -> Bool in
      do {
        try state.session.receive(
          UnsafeRawBufferPointer(rebasing: buffer[..<count]), now: .now, events: &events)
        return true
      } catch {
        return false
      }
    }
    handle(events)
    if !received { connectionLost("protocol error") }
  }

  /// Sends what the session holds, keeping what the socket does not take for `EPOLLOUT`.
  func flush() {
    assertOnLoop()
    guard descriptor >= 0 else {
      state.withLock { $0.flushScheduled = false }
      return
    }
    state.withLock { state in
      state.flushScheduled = false
      if writeBuffer.count - writeOffset < Self.outboundLimit {
        if writeOffset == writeBuffer.count {
          writeBuffer.removeAll(keepingCapacity: true)
          writeOffset = 0
        }
        state.session.moveOutbound(into: &writeBuffer)
      }
    }
    while writeOffset < writeBuffer.count {
      let outcome: IOResult<Int>
      do {
        outcome = try writeBuffer.withUnsafeBytes {
          try SocketCalls.send(descriptor, UnsafeRawBufferPointer(rebasing: $0[writeOffset...]))
        }
      } catch {
        return connectionLost("\(error)")
      }
      guard case .done(let sent) = outcome else { break }
      writeOffset += sent
    }
    let unsent = writeBuffer.count - writeOffset
    state.withLock { $0.unsentBytes = unsent }
    let wantWritable = unsent > 0
    if wantWritable != watchingWritable {
      let events = EPOLLIN.rawValue | EPOLLRDHUP.rawValue | (wantWritable ? EPOLLOUT.rawValue : 0)
      try? loop?.modify(descriptor, events: events)
      watchingWritable = wantWritable
    }
  }

  /// Drops the connection and tries the next server.
  func connectionLost(_ reason: String) {
    assertOnLoop()
    guard descriptor >= 0 else { return }
    let server = state.withLock { $0.session.servers.current.map { "\($0)" } ?? "?" }
    logger.warning(
      "cluster connection lost", metadata: ["server": "\(server)", "reason": "\(reason)"])
    closeSocket()
    var events: [NATSSessionEvent] = []
    state.withLock { state in
      state.session.connectionClosed(events: &events)
      state.session.servers.attemptFailed()
      state.counters.disconnects += 1
    }
    handle(events)
    connectNext()
  }

  private func closeSocket() {
    guard descriptor >= 0 else { return }
    loop?.deregister(descriptor)
    Glibc.close(descriptor)
    descriptor = -1
    watchingWritable = false
    writeBuffer.removeAll(keepingCapacity: true)
    writeOffset = 0
    state.withLock { $0.unsentBytes = 0 }
  }
}
