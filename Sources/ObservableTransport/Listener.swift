import CLinux
import Glibc
import Logging
import ObservableLogging
import ObservablePOSIX
import ObservableWire
import WebSocket

/// A listening socket on the first event loop that accepts clients and spreads them over all
/// loops.
package final class Listener: ReadinessHandler, @unchecked Sendable {
  // Unchecked: after `init`, every member is used on `loop`'s thread only.

  /// What the listener listens on, for logs and for the bound port.
  package let label: String

  /// Whether it keeps accepting once shutdown begins, until the grace ends: the HTTP port
  /// does, so that probes read 503 from `/healthz` rather than find the port closed.
  package let answersDuringShutdown: Bool

  package init(
    descriptor: Int32,
    label: String,
    unixPath: String?,
    loop: EventLoop,
    connectionLoops: [ConnectionLoop],
    makeConnection: @escaping @Sendable (Int32, String, ConnectionLoop) -> Connection?,
    admission: Admission,
    slots: Admission.Slots,
    deadPeerTimeout: Duration?,
    answersDuringShutdown: Bool,
    servesTLS: Bool = false,
    warnings: RepeatedWarnings,
    logger: Logger
  ) {
    self.servesTLS = servesTLS
    self.slots = slots
    self.deadPeerTimeout = deadPeerTimeout
    self.descriptor = descriptor
    self.label = label
    self.unixPath = unixPath
    self.loop = loop
    self.connectionLoops = connectionLoops
    self.makeConnection = makeConnection
    self.admission = admission
    self.answersDuringShutdown = answersDuringShutdown
    self.warnings = warnings
    self.logger = logger
  }

  /// Starts accepting. Loop thread only.
  package func open() throws(SystemError) {
    loop.assertInLoop()
    try loop.register(descriptor, events: EPOLLIN.rawValue, handler: self)
  }

  /// Stops accepting, closes the socket and removes a Unix socket file it created. Loop thread
  /// only.
  package func close() {
    loop.assertInLoop()
    guard !closed else { return }
    closed = true
    loop.deregister(descriptor)
    Glibc.close(descriptor)
    if let unixPath { unlink(unixPath) }
  }

  /// Whether `fd` is this listener's socket, which ``close()`` closes.
  package func owns(_ fd: Int32) -> Bool { fd == descriptor }

  package func descriptorReady(_ events: UInt32) {
    loop.assertInLoop()
    // Bounded, so that a flood of connects cannot hold the loop.
    for _ in 0..<256 where !closed {
      let client: Int32
      do {
        guard let accepted = try SocketCalls.accept(descriptor) else { return }
        client = accepted
      } catch {
        pauseAfter(error)
        return
      }
      admit(client)
    }
  }

  private func admit(_ client: Int32) {
    guard admission.admit(slots, duringShutdown: answersDuringShutdown) else {
      // A TLS client could not read a refusal in clear: it sees the connection close.
      if !servesTLS {
        let refusal = refusal
        _ = refusal.withUnsafeBytes { try? SocketCalls.send(client, $0) }
      }
      Glibc.close(client)
      warnings.warn(
        .connectionRefused, "connection refused: too many connections",
        metadata: ["listener": "\(label)"])
      return
    }
    // Lines are small and latency matters; writes are batched by the outbox instead. Fails
    // harmlessly on Unix sockets.
    _ = try? SocketCalls.setOption(client, Int32(IPPROTO_TCP), TCP_NODELAY, 1)
    UnsentLimit.apply(to: client)
    // "Closing the socket unsubscribes it" must hold when the network closes it too. Fails
    // harmlessly on Unix sockets, whose peers cannot vanish.
    if let deadPeerTimeout { _ = try? SocketCalls.dropWhenSilent(client, after: deadPeerTimeout) }
    let target = connectionLoops[next % connectionLoops.count]
    next &+= 1
    guard
      let connection = makeConnection(client, SocketCalls.peerName(client, listener: label), target)
    else {
      // Only a TLS session OpenSSL could not make (out of memory) ends here.
      Glibc.close(client)
      admission.release(slots)
      return
    }
    target.loop.execute { connection.open() }
  }

  /// What a client refused at the limit is told, in the protocol of the port: an error line,
  /// or an HTTP 503 that a browser or a probe shows as such.
  private var refusal: [UInt8] {
    let limit = admission.limit(of: slots)
    switch slots {
    case .line:
      return ReplyEncoder.notice(
        ProtocolError(.tooManyConnections, "the server is at its limit of \(limit) connections"))
    case .http:
      return HTTPResponse.text(
        .serviceUnavailable, "the server is at its limit of \(limit) HTTP connections"
      ).bytes()
    }
  }

  /// Out of descriptors or memory: stop accepting for a moment instead of spinning, since the
  /// pending connection keeps the listener readable.
  private func pauseAfter(_ error: SystemError) {
    logger.error("accept failed", metadata: ["listener": "\(label)", "error": "\(error)"])
    guard (try? loop.modify(descriptor, events: 0)) != nil else { return }
    loop.schedule(in: .milliseconds(100)) { [self] in
      if !closed { try? loop.modify(descriptor, events: EPOLLIN.rawValue) }
    }
  }

  private let descriptor: Int32
  private let unixPath: String?
  private let loop: EventLoop
  private let connectionLoops: [ConnectionLoop]
  private let makeConnection: @Sendable (Int32, String, ConnectionLoop) -> Connection?
  /// Whether clients speak TLS, so a refusal is a close rather than a line in clear.
  private let servesTLS: Bool
  private let admission: Admission
  /// The limit this listener's connections count against.
  private let slots: Admission.Slots
  private let deadPeerTimeout: Duration?
  private let warnings: RepeatedWarnings
  private let logger: Logger
  private var next = 0
  private var closed = false
}
