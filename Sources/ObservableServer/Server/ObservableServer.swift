import Glibc
import Locking
import Logging
import ObservableCluster
import ObservableCounters
import ObservableFraming
import ObservableHTTP
import ObservableLogging
import ObservablePOSIX
import ObservableSession
import ObservableStreams
import ObservableTransport
import ObservableVersion
import TLS

/// A server that exposes named observables over a line-delimited JSON protocol.
///
/// ```swift
/// var configuration = ServerConfiguration()
/// configuration.listen = [.tcp(host: "127.0.0.1", port: 0)]
/// let server = ObservableServer(configuration: configuration)
/// let addresses = try server.start()
/// // …
/// server.shutdown()
/// ```
public final class ObservableServer: Sendable {
  /// The server's version, sent in the greeting: `ReleaseVersion.current`.
  public static let version = ReleaseVersion.current

  /// Creates a server; nothing is bound until ``start()``.
  public init(
    configuration: ServerConfiguration, logger: Logger = Logger(label: "observable-server")
  ) {
    self.configuration = configuration
    self.logger = logger
    let counters = ServerCounters()
    warnings = RepeatedWarnings(logger: logger)
    let cluster = Self.clusterConfiguration(configuration).map {
      ClusterLink(configuration: $0, logger: logger)
    }
    var sources: [any StreamSource] = [
      BuiltinStreams.clock(), BuiltinStreams.stats(counters: counters, replication: cluster),
    ]
    for exec in configuration.execStreams {
      sources.append(
        ExecSource(
          name: exec.name, command: exec.command, gracePeriod: configuration.execGracePeriod,
          maxLineBytes: configuration.maxLineBytes, logger: logger))
    }
    self.counters = counters
    registry = StreamRegistry(
      sources: sources, counters: counters, maxRetainedBytes: configuration.maxRetainedBytes,
      replication: cluster, history: Self.history(configuration, counters))
    admission = Admission(
      limit: configuration.maxConnections, httpLimit: configuration.maxHTTPConnections,
      counters: counters)
    queuedOutput = QueuedOutput(limit: configuration.maxTotalQueuedBytes)
  }

  /// Binds every configured address (or takes the inherited listeners), starts the event loops
  /// and returns the addresses served, with port 0 resolved to the port chosen. On failure,
  /// everything it began is undone before it throws.
  @discardableResult
  public func start() throws -> [ListenAddress] {
    // Writes to a closed socket must fail with EPIPE rather than end the process.
    signal(SIGPIPE, SIG_IGN)
    var parts = RunningParts()
    do {
      // Loaded before anything listens: no client sees the server half-loaded.
      parts.store = try openStore()
      var batching = configuration.sendBatching == .auto
      if !batching { logger.notice("io_uring off; one send per connection through epoll") }
      for index in 0..<configuration.eventLoopCount {
        let ring =
          batching
          ? SendBatching.openRing(
            counters: counters, requiring: configuration.sendRingOperations, logger: logger,
            logsSuccess: index == 0) : nil
        batching = ring != nil
        let loop = try EventLoop(
          name: "observable-loop-\(index)", logger: logger, sendRing: ring)
        parts.loops.append(
          ConnectionLoop(loop: loop, queuedOutput: queuedOutput, heapTrim: heapTrim))
        try loop.start()
      }
      queuedOutput.serve(parts.loops)
      let sockets = try ListeningSockets.open(configuration)
      parts.sockets = sockets.descriptors
      parts.tls = try certificates(for: sockets)
      registry.start(on: parts.acceptLoop)
      warnings.reportOn(parts.acceptLoop)
      heapTrim.start(on: parts.acceptLoop, queuedOutput: queuedOutput)
      registry.cluster?.start(on: parts.acceptLoop, registry: registry)
      for socket in sockets.entries {
        let listener = makeListener(socket, parts: parts)
        try parts.acceptLoop.submitAndWait { () throws(SystemError) in try listener.open() }
        parts.listeners.append(listener)
        logger.notice("listening", metadata: ["address": "\(listener.label)"])
      }
      parts.httpAddresses = sockets.servedHTTP
      parts.tlsAddresses = sockets.servedTLS
      parts.httpsAddresses = sockets.servedHTTPS
      running.withLock { $0 = parts }
      return sockets.served
    } catch {
      stop(parts)
      throw error
    }
  }

  private func makeListener(_ socket: ListeningSockets.Entry, parts: RunningParts) -> Listener {
    let settings = ConnectionSettings(
      maxLineBytes: configuration.maxLineBytes, maxQueuedBytes: configuration.maxQueuedBytes,
      webSocketPingInterval: configuration.webSocketPingInterval,
      httpHeadTimeout: configuration.httpHeadTimeout, deflateLevel: configuration.deflateLevel,
      deflateFlushesEachLine: configuration.deflateFlushesEachLine,
      tlsHandshakeTimeout: configuration.tlsHandshakeTimeout)
    let context = SessionContext(
      registry: registry, cluster: registry.cluster, token: configuration.token,
      access: configuration.access, authTimeout: configuration.authTimeout,
      maxSubscriptions: configuration.maxSubscriptions,
      warnings: warnings, counters: counters, logger: logger, store: parts.store)
    let admission = admission
    let counters = counters
    let router =
      socket.servesHTTP
      ? HTTPRouter(
        counters: counters, allowOrigins: configuration.allowOrigins, cluster: registry.cluster,
        isServing: { admission.isAccepting }, scheme: socket.servesTLS ? "https" : "http",
        access: context.access, warnings: warnings,
        eventHeartbeat: configuration.serverSentEventsHeartbeat,
        eventRetry: configuration.serverSentEventsRetry,
        keepsHistory: configuration.historyPerTopic > 0 && registry.cluster == nil)
      : nil
    let slots: Admission.Slots = router == nil ? .line : .http
    let certificates = socket.servesTLS ? parts.tls : nil
    return Listener(
      descriptor: socket.descriptor, label: socket.label, unixPath: socket.unixPath,
      loop: parts.acceptLoop, connectionLoops: parts.loops,
      makeConnection: { descriptor, peer, home in
        var session: TLSSession?
        if let certificates {
          // The context of this moment: a reload later leaves this connection's alone.
          guard let made = try? TLSSession(context: certificates.current) else { return nil }
          session = made
        }
        return Connection(
          descriptor: descriptor, peer: peer, on: home, settings: settings, context: context,
          admission: admission, slots: slots,
          framing: router.map { HTTPFraming(router: $0, settings: settings, counters: counters) }
            ?? LineFraming(maxLineBytes: settings.maxLineBytes),
          tls: session)
      },
      admission: admission, slots: slots, deadPeerTimeout: configuration.deadPeerTimeout,
      answersDuringShutdown: socket.servesHTTP, servesTLS: socket.servesTLS, warnings: warnings,
      logger: logger)
  }

  /// The HTTP addresses served (`--http`), with port 0 resolved; empty unless the server runs.
  public var httpAddresses: [ListenAddress] { running.withLock { $0?.httpAddresses } ?? [] }

  /// How many clients are connected now.
  public var connectionCount: Int { admission.openCount }

  /// One line on what the server is doing, for a service manager's status.
  public var statusSummary: String {
    let counters = counters.snapshot
    return "serving \(counters.connections) connections, \(counters.subscriptions) subscriptions"
  }

  /// Stops accepting, closes every connection (running every disconnect), ends exec processes,
  /// removes Unix socket files it created, and stops and joins the event loops.
  ///
  /// Connections are drained, not cut: each gets what was queued for it, then a FIN, and its
  /// input is read and discarded until it closes too or the shutdown grace has passed, so no
  /// reply already sent is destroyed by a reset. Until then the HTTP listeners still answer,
  /// `/healthz` with 503, so that a probe sees the server leave rather than a refused port.
  public func shutdown() {
    guard let parts = running.withLock({ $0.take() }) else { return }
    admission.close()
    let grace = configuration.shutdownGrace
    closeListeners(parts, keepingThoseAnsweringDuringShutdown: true)
    for home in parts.loops {
      try? home.loop.submitAndWait {
        for connection in home.connections.all { connection.drain(within: grace) }
      }
    }
    _ = admission.waitUntilAllClosed(timeout: grace + .milliseconds(200))
    stop(parts)
    logger.notice("stopped")
  }

  /// Closes the listeners and any socket no listener took; with
  /// `keepingThoseAnsweringDuringShutdown`, only the listeners that do not answer during
  /// shutdown. A listener closes only once, so this may run again to close the rest.
  private func closeListeners(
    _ parts: RunningParts, keepingThoseAnsweringDuringShutdown keeping: Bool = false
  ) {
    if let acceptLoop = parts.loops.first?.loop {
      try? acceptLoop.submitAndWait {
        for listener in parts.listeners where !(keeping && listener.answersDuringShutdown) {
          listener.close()
        }
      }
    }
    guard !keeping else { return }
    for descriptor in parts.sockets where !parts.listeners.contains(where: { $0.owns(descriptor) })
    {
      close(descriptor)
    }
  }

  /// Undoes whatever of `parts` was begun, in the reverse order; connections still open are
  /// closed at once.
  private func stop(_ parts: RunningParts) {
    closeListeners(parts)
    // Each loop closes its own connections; once its task returns, they are closed.
    for home in parts.loops {
      try? home.loop.submitAndWait {
        for connection in home.connections.all { connection.closeForShutdown() }
        // Disconnects still waiting for their slice run now: none is lost to the stop.
        home.disconnects.runAll()
      }
    }
    // No connection is left to write: everything queued and applied goes to disk now.
    parts.store?.close()
    queuedOutput.serve([])
    heapTrim.stop()
    registry.cluster?.stop()
    registry.shutdown()
    for home in parts.loops { home.loop.stop() }
    for home in parts.loops { home.loop.join() }
  }

  let counters: ServerCounters
  let registry: StreamRegistry
  let configuration: ServerConfiguration
  let logger: Logger
  private let admission: Admission
  private let warnings: RepeatedWarnings
  /// The bytes every connection's outbox holds together; tests read its chunk census.
  let queuedOutput: QueuedOutput
  private let heapTrim = HeapTrim()
  let running = Locked<RunningParts?>(nil)
}
