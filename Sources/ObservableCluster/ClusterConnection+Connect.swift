import CLinux
import Glibc
import NATS
import ObservablePOSIX

/// Connecting to a NATS server: the next one of the pool, resolved and connected off the
/// loop. Loop only.
extension ClusterConnection {
  /// Opens a socket to the next server, after the back-off once every server failed in a row.
  func connectNext() {
    guard !stopped, let loop = link.loop else { return }
    let attempt = link.state.withLock {
      $0.session.servers.nextAttempt(policy: policy, using: &random)
    }
    guard attempt.delay > .zero else { return open(attempt.server) }
    reconnectTimer = loop.schedule(in: attempt.delay) { [self] in open(attempt.server) }
  }

  /// Resolves and connects on a thread of its own: `getaddrinfo` may wait for DNS and an
  /// address may not answer, and neither may hold up the loop's clients.
  private func open(_ server: NATSServerURL) {
    guard !stopped, let loop = link.loop else { return }
    do throws(SystemError) {
      try LoopThread.start(name: "obs-nats-conn") { [self] in
        let result: Result<Int32, SystemError>
        do throws(SystemError) {
          result = .success(try ClusterSocket.connect(host: server.host, port: server.port))
        } catch {
          result = .failure(error)
        }
        loop.execute { [self] in opened(result, to: server) }
      }.detach()
    } catch {
      opened(.failure(error), to: server)
    }
  }

  /// Takes the connected socket to `server` on the loop, or moves on to the next server.
  private func opened(_ result: Result<Int32, SystemError>, to server: NATSServerURL) {
    do throws(SystemError) {
      let fd = try result.get()
      guard !stopped, let loop = link.loop else {
        Glibc.close(fd)
        return
      }
      descriptor = fd
      try loop.register(
        descriptor, events: EPOLLIN.rawValue | EPOLLRDHUP.rawValue, handler: self)
      watchingWritable = false
      link.state.withLock { $0.session.connectionOpened(to: server, now: .now) }
    } catch {
      link.logger.warning(
        "cluster connection failed", metadata: ["server": "\(server)", "error": "\(error)"])
      if descriptor >= 0 { Glibc.close(descriptor) }
      descriptor = -1
      link.state.withLock { $0.session.servers.attemptFailed() }
      connectNext()
    }
  }
}
