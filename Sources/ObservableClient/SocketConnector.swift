import Glibc
import ObservablePOSIX

/// Opens a non-blocking stream socket to a ``ServerAddress`` within a time limit.
///
/// Every wait also watches a ``WakePipe``, so ``ObservableClient/close()`` interrupts an attempt
/// to an address that does not answer instead of waiting for the kernel's own timeout.
enum SocketConnector {
  /// Connects to `address`, trying each address the name resolves to in turn.
  ///
  /// - Returns: A connected, non-blocking socket with `TCP_NODELAY` set on TCP.
  /// - Throws: ``ClientError/connectionFailed(address:reason:)`` naming `address`.
  static func connect(
    to address: ServerAddress, timeout: Duration, wake: WakePipe
  ) throws(ClientError) -> Int32 {
    let deadline = ContinuousClock.now + timeout
    let targets: [SocketAddress]
    switch address {
    case .unix(let path):
      // Only a TCP address is resolved; a path becomes its sockaddr_un without a system call.
      guard let target = try? SocketAddress(.unix(path: path)) else {
        throw .connectionFailed(address: address.description, reason: "no address")
      }
      targets = [target]
    case .tcp(let host, let port):
      do {
        targets = try SocketAddress.lookUp(host: host, port: port)
      } catch {
        throw .connectionFailed(address: address.description, reason: error.reason)
      }
    }
    var lastError = ClientError.connectionFailed(
      address: address.description, reason: "no address")
    for target in targets {
      do {
        return try target.withUnsafeSockaddr { (sockaddr, length) throws(ClientError) in
          try attempt(
            family: target.family, address: sockaddr, length: length, deadline: deadline,
            wake: wake, name: address)
        }
      } catch {
        lastError = error
      }
    }
    throw lastError
  }

  private static func attempt(
    family: Int32, address: UnsafePointer<sockaddr>, length: socklen_t,
    deadline: ContinuousClock.Instant, wake: WakePipe, name: ServerAddress
  ) throws(ClientError) -> Int32 {
    func failure(_ code: Int32) -> ClientError {
      .connectionFailed(address: name.description, reason: String(cString: strerror(code)))
    }
    let kind = Int32(SOCK_STREAM.rawValue | SOCK_NONBLOCK.rawValue | SOCK_CLOEXEC.rawValue)
    let fd = socket(family, kind, 0)
    guard fd >= 0 else { throw failure(errno) }
    if Glibc.connect(fd, address, length) != 0 {
      guard errno == EINPROGRESS || errno == EINTR else {
        let code = errno
        close(fd)
        throw failure(code)
      }
      switch PollWait.wait(fd: fd, events: Int16(POLLOUT), until: deadline, wake: wake) {
      case .ready: break
      case .timedOut:
        close(fd)
        throw failure(ETIMEDOUT)
      case .woken:
        close(fd)
        throw ClientError.closed
      }
      var code: Int32 = 0
      var size = socklen_t(MemoryLayout<Int32>.size)
      getsockopt(fd, SOL_SOCKET, SO_ERROR, &code, &size)
      guard code == 0 else {
        close(fd)
        throw failure(code)
      }
    }
    if family != AF_UNIX {
      // Requests are small lines; Nagle's delay would hold each one back for an ACK.
      var on: Int32 = 1
      setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
    }
    return fd
  }
}
