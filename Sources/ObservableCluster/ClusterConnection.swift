import CLinux
import Glibc
import Logging
import NATS
import ObservablePOSIX

/// The node's socket to NATS, on the link's event loop: it reads into the link's NATS
/// session, writes what the session holds, runs the session's timer (pings, a silent server),
/// moves to the next server after a loss, and keeps what to do with each request's reply.
/// Loop only, but for ``stop()``.
package final class ClusterConnection: ReadinessHandler, @unchecked Sendable {
  // Unchecked: every member is touched on the link's loop only, or by `stop()` through it.

  /// A connection of `link`, which owns it; it connects once ``start()`` runs.
  init(link: ClusterLink) {
    self.link = link
  }

  /// The link whose session the socket carries and to which it hands what it receives.
  unowned let link: ClusterLink
  /// The NATS socket, or -1 between connections.
  var descriptor: Int32 = -1
  /// Whether the loop reports room to write (`EPOLLOUT`).
  var watchingWritable = false
  private var writeBuffer: [UInt8] = []
  private var writeOffset = 0
  /// TLS on the current connection, once the server asked for it.
  var tls = ClusterTLS()
  private var tickTimer: LoopTimer?
  var reconnectTimer: LoopTimer?
  /// Set by ``stop()``: nothing reconnects or retries after it.
  private(set) var stopped = false
  /// What to do with each request's reply.
  var replies: [NATSRequestID: (Result<NATSMessage, NATSRequestError>) -> Void] = [:]
  var random = SystemRandomNumberGenerator()
  let policy = NATSReconnectPolicy(
    initialDelay: .milliseconds(100), maxDelay: .seconds(5), jitter: 0.3)

  /// Starts the session's timer and connects to the first server.
  func start() {
    link.assertOnLoop()
    scheduleTick()
    connectNext()
  }

  /// Closes the socket and stops reconnecting. On the loop.
  func stop() {
    stopped = true
    closeSocket()
    if let tickTimer { link.loop?.cancel(tickTimer) }
    if let reconnectTimer { link.loop?.cancel(reconnectTimer) }
  }

  private func scheduleTick() {
    tickTimer = link.loop?.schedule(in: .milliseconds(200)) { [self] in
      guard !stopped else { return }
      // A PONG that came while the loop was held up must be read before the session judges
      // the server silent, so that a busy loop does not make a false failover.
      if descriptor >= 0 { readAvailable() }
      var events: [NATSSessionEvent] = []
      link.state.withLock { $0.session.tick(now: .now, events: &events) }
      handle(events)
      flush()
      scheduleTick()
    }
  }

  package func descriptorReady(_ events: UInt32) {
    link.assertOnLoop()
    guard descriptor >= 0 else { return }
    if events & (EPOLLIN.rawValue | EPOLLRDHUP.rawValue | EPOLLHUP.rawValue | EPOLLERR.rawValue)
      != 0
    {
      readAvailable()
    }
    if descriptor >= 0 { flush() }
  }

  private func readAvailable() {
    guard let loop = link.loop else { return }
    let buffer = loop.readBuffer
    let outcome: IOResult<Int>
    do {
      outcome = try SocketCalls.read(descriptor, into: buffer)
    } catch {
      return connectionLost("\(error)")
    }
    guard case .done(let count) = outcome else { return }
    guard count > 0 else { return connectionLost("closed by the NATS server") }
    receive(count, from: buffer)
  }

  /// Hands plaintext from the server to the NATS session; `false` when that dropped the
  /// connection.
  func deliver(_ bytes: UnsafeRawBufferPointer) -> Bool {
    var events: [NATSSessionEvent] = []
    let received = link.state.withLock { state -> Bool in
      do {
        try state.session.receive(bytes, now: .now, events: &events)
        return true
      } catch {
        return false
      }
    }
    handle(events)
    if !received { connectionLost("protocol error") }
    return received
  }

  /// Sends what the session holds, keeping what the socket does not take for `EPOLLOUT`.
  func flush() {
    link.assertOnLoop()
    guard descriptor >= 0 else {
      link.state.withLock { $0.flushScheduled = false }
      return
    }
    link.state.withLock { state in
      state.flushScheduled = false
      if writeBuffer.count - writeOffset < ClusterLink.outboundLimit {
        if writeOffset == writeBuffer.count {
          writeBuffer.removeAll(keepingCapacity: true)
          writeOffset = 0
        }
        moveOutbound(from: &state.session, into: &writeBuffer)
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
    link.state.withLock { $0.unsentBytes = unsent }
    let wantWritable = unsent > 0
    if wantWritable != watchingWritable {
      let events = EPOLLIN.rawValue | EPOLLRDHUP.rawValue | (wantWritable ? EPOLLOUT.rawValue : 0)
      try? link.loop?.modify(descriptor, events: events)
      watchingWritable = wantWritable
    }
  }

  /// Drops the connection and tries the next server.
  func connectionLost(_ reason: String) {
    link.assertOnLoop()
    guard descriptor >= 0 else { return }
    let server = link.state.withLock { $0.session.servers.current.map { "\($0)" } ?? "?" }
    link.logger.warning(
      "cluster connection lost", metadata: ["server": "\(server)", "reason": "\(reason)"])
    closeSocket()
    var events: [NATSSessionEvent] = []
    link.state.withLock { state in
      state.session.connectionClosed(events: &events)
      state.session.servers.attemptFailed()
      state.counters.disconnects += 1
    }
    handle(events)
    connectNext()
  }

  private func closeSocket() {
    guard descriptor >= 0 else { return }
    link.loop?.deregister(descriptor)
    Glibc.close(descriptor)
    descriptor = -1
    watchingWritable = false
    writeBuffer.removeAll(keepingCapacity: true)
    writeOffset = 0
    tls.session = nil
    link.state.withLock { $0.unsentBytes = 0 }
  }
}
