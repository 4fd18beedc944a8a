import Dispatch
import Glibc
import Locking
import Logging

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
  /// The server's version, sent in the greeting.
  public static let version = "1.0.0"

  /// Creates a server; nothing is bound until ``start()``.
  public init(
    configuration: ServerConfiguration, logger: Logger = Logger(label: "observable-server")
  ) {
    let counters = ServerCounters()
    var sources: [SourceStream] = [
      PeriodicStream.clock(counters: counters), PeriodicStream.stats(counters: counters),
    ]
    for exec in configuration.execStreams {
      let source = ExecSource(
        name: exec.name, command: exec.command, gracePeriod: configuration.execGracePeriod,
        maxLineBytes: configuration.maxLineBytes, logger: logger)
      sources.append(ExecStream(source: source, name: exec.name, counters: counters))
    }
    state = ServerState(
      configuration: configuration,
      registry: StreamRegistry(sources: sources, counters: counters),
      counters: counters, logger: logger, version: Self.version)
  }

  /// Binds every configured address (or takes the inherited listeners), starts the event loops
  /// and returns the addresses served, with port 0 resolved to the port chosen.
  @discardableResult
  public func start() throws -> [ListenAddress] {
    // Writes to a closed socket must fail with EPIPE rather than end the process.
    signal(SIGPIPE, SIG_IGN)
    let configuration = state.configuration
    let loops = try (0..<configuration.eventLoopCount).map { index throws(SystemError) in
      try EventLoop(name: "observable-server-loop-\(index)")
    }
    var opened: [(descriptor: Int32, address: ListenAddress?, label: String)] = []
    do {
      if configuration.inheritedListeners.isEmpty {
        for address in configuration.listen {
          if case .unix(let path) = address { try UnixSocketPath.prepare(path) }
          let descriptor = try SocketCalls.listen(on: address, backlog: 1024)
          opened.append((descriptor, address, address.description))
        }
      } else {
        opened = configuration.inheritedListeners.map {
          ($0.descriptor, nil, "\($0.name) (fd \($0.descriptor) from the service manager)")
        }
      }
    } catch {
      for entry in opened { close(entry.descriptor) }
      throw error
    }
    for loop in loops { loop.start() }
    let acceptLoop = loops[0]
    var bound: [ListenAddress] = []
    var listeners: [Listener] = []
    for entry in opened {
      var unixPath: String?
      var served = entry.address
      switch entry.address {
      case .unix(let path): unixPath = path
      case .tcp(let host, _):
        served = .tcp(host: host, port: SocketCalls.boundPort(entry.descriptor) ?? 0)
      case nil: break
      }
      let listener = Listener(
        descriptor: entry.descriptor, label: served?.description ?? entry.label, unixPath: unixPath,
        loop: acceptLoop, connectionLoops: loops, state: state)
      try acceptLoop.submitAndWait { () throws(SystemError) in try listener.open() }
      listeners.append(listener)
      if let served { bound.append(served) }
      state.logger.info("listening", metadata: ["address": "\(listener.label)"])
    }
    running.withLock { $0 = RunningParts(loops: loops, listeners: listeners) }
    return bound
  }

  /// How many clients are connected now.
  public var connectionCount: Int { state.openConnectionCount }

  /// One line on what the server is doing, for a service manager's status.
  public var statusSummary: String {
    let counters = state.counters.snapshot
    return "serving \(counters.connections) connections, \(counters.subscriptions) subscriptions"
  }

  /// Calls `body` once every event loop has run a task, which shows none of them is stuck.
  func whenEventLoopsRespond(_ body: @escaping @Sendable () -> Void) {
    guard let loops = running.withLock({ $0?.loops }) else { return }
    let remaining = Locked(loops.count)
    for loop in loops {
      loop.execute {
        let last = remaining.withLock { count in
          count -= 1
          return count == 0
        }
        if last { body() }
      }
    }
  }

  /// Stops accepting, closes every connection (running every disconnect), ends exec processes,
  /// removes Unix socket files it created, and stops the event loops. Returns within about
  /// `timeout`, plus the exec grace period if a process ignores `SIGTERM`.
  public func shutdown(timeout: Duration = .seconds(1)) {
    guard let parts = running.withLock({ $0.take() }) else { return }
    let acceptLoop = parts.loops[0]
    try? acceptLoop.submitAndWait { () throws(SystemError) in
      for listener in parts.listeners { listener.close() }
    }
    for connection in state.closeAdmission() {
      connection.loop.execute { connection.close("server shutting down") }
    }
    let deadline = ContinuousClock.now + timeout
    while state.openConnectionCount > 0, ContinuousClock.now < deadline { usleep(1_000) }
    state.registry.shutdown()
    for loop in parts.loops { loop.stop() }
    for loop in parts.loops { _ = loop.awaitStopped(timeout: .milliseconds(500)) }
    state.logger.info("stopped")
  }

  let state: ServerState
  private let running = Locked<RunningParts?>(nil)
}

/// The threads and sockets of a started server.
private struct RunningParts: @unchecked Sendable {
  // Unchecked: listeners are only touched on their loop, through `submitAndWait`.
  let loops: [EventLoop]
  let listeners: [Listener]
}
