import Glibc
import ObservablePOSIX

/// The NATS client socket's calls: resolving a server's name and connecting to each of its
/// addresses in turn, with `TCP_NODELAY`. They block, so the link runs them on a thread of
/// their own, never on its loop.
package enum ClusterSocket {
  /// How long one address may take to accept the connection before the next is tried: long
  /// for a NATS server on a network, short enough that a name whose first address is dead
  /// still connects well within the handshake's own time.
  static let addressTimeout = Duration.seconds(2)

  /// Resolves `host` and connects to its addresses in `getaddrinfo`'s order; returns the
  /// first connected (non-blocking) descriptor, or throws the last address's error.
  static func connect(host: String, port: UInt16) throws(SystemError) -> Int32 {
    try connect(to: SocketAddress.resolve(host: host, port: port))
  }

  /// Connects to `addresses` in order, giving each `timeout`; returns the first connected
  /// (non-blocking) descriptor, or throws the last address's error.
  static func connect(to addresses: [SocketAddress], timeout: Duration = addressTimeout)
    throws(SystemError) -> Int32
  {
    var lastError = SystemError(call: "connect", code: EHOSTUNREACH)
    for address in addresses {
      do {
        return try connect(to: address, timeout: timeout)
      } catch {
        lastError = error
      }
    }
    throw lastError
  }

  private static func connect(to address: SocketAddress, timeout: Duration) throws(SystemError)
    -> Int32
  {
    let fd = try blockingSyscall("socket") {
      socket(
        address.family,
        Int32(SOCK_STREAM.rawValue | SOCK_NONBLOCK.rawValue | SOCK_CLOEXEC.rawValue), 0)
    }
    do throws(SystemError) {
      // Without it a request's round trip took 44 ms instead of 145 µs (Nagle and delayed ACK).
      try SocketCalls.setOption(fd, Int32(IPPROTO_TCP), TCP_NODELAY, 1)
      let started = try address.withSockaddr { pointer, length in
        Glibc.connect(fd, pointer, length)
      }
      if started != 0 {
        guard errno == EINPROGRESS else { throw SystemError(call: "connect", code: errno) }
        try waitWritable(fd, timeout: timeout)
      }
      return fd
    } catch {
      close(fd)
      throw error
    }
  }

  /// Waits until the connect started on `fd` completes, and throws its error if it failed.
  private static func waitWritable(_ fd: Int32, timeout: Duration) throws(SystemError) {
    let deadline = ContinuousClock.now + timeout
    var entry = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
    while true {
      let left = deadline - .now
      guard left > .zero else { throw SystemError(call: "connect", code: ETIMEDOUT) }
      let milliseconds = Int32(clamping: Int64((left / .milliseconds(1)).rounded(.up)))
      let ready = poll(&entry, 1, milliseconds)
      if ready < 0 {
        guard errno == EINTR else { throw SystemError(call: "poll", code: errno) }
        continue
      }
      if ready > 0 { break }
    }
    var error: Int32 = 0
    var length = socklen_t(MemoryLayout<Int32>.size)
    guard getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length) == 0 else {
      throw SystemError(call: "getsockopt", code: errno)
    }
    guard error == 0 else { throw SystemError(call: "connect", code: error) }
  }
}
