import Dispatch
import Glibc
import Locking

/// Connections publishing to one topic as fast as the server takes it, from one thread: each
/// writes pipelined publishes whenever its socket has room and reads and discards its replies,
/// so the publishers themselves are never slow consumers.
public final class PublishFlood: @unchecked Sendable {
  // Unchecked: the sockets are used by the flood's thread alone until it has ended;
  // `stopping` is locked.

  /// Opens `connections` publishers to `port` that publish `valueBytes`-byte strings to
  /// `stream` once ``start()`` is called.
  public init(port: UInt16, connections: Int, stream: String, valueBytes: Int) throws {
    clients = try (0..<connections).map { _ in try LineClient(port: port) }
    let line = Array("publish \(stream) \"\(String(repeating: "v", count: valueBytes))\"\n".utf8)
    chunk = Array(Array(repeating: line, count: max(1, 16_384 / line.count)).joined())
    for client in clients {
      _ = fcntl(client.fd, F_SETFL, fcntl(client.fd, F_GETFL) | O_NONBLOCK)
    }
  }

  /// Starts publishing on a thread of its own.
  public func start() {
    DispatchQueue.global().async(group: running) { [self] in run() }
  }

  /// Stops publishing and waits for the thread, then closes the connections.
  public func stop() {
    stopping.withLock { $0 = true }
    running.wait()
    for client in clients { client.close() }
  }

  deinit { stop() }

  private func run() {
    var offsets = [Int](repeating: 0, count: clients.count)
    var sink = [UInt8](repeating: 0, count: 65_536)
    var polls = clients.map { pollfd(fd: $0.fd, events: Int16(POLLIN | POLLOUT), revents: 0) }
    while !stopping.withLock({ $0 }) {
      guard poll(&polls, nfds_t(polls.count), 50) > 0 else { continue }
      for index in polls.indices where polls[index].revents != 0 {
        let fd = polls[index].fd
        if polls[index].revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 {
          if recv(fd, &sink, sink.count, 0) == 0 { polls[index].fd = -1 }
        }
        if polls[index].revents & Int16(POLLOUT) != 0 {
          let sent = chunk[offsets[index]...].withUnsafeBytes {
            Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
          }
          if sent > 0 { offsets[index] = (offsets[index] + sent) % chunk.count }
        }
      }
    }
  }

  private let clients: [LineClient]
  private let chunk: [UInt8]
  private let stopping = Locked(false)
  private let running = DispatchGroup()
}
