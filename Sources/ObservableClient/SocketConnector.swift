import Glibc

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
    switch address {
    case .unix(let path):
      var storage = sockaddr_un()
      storage.sun_family = sa_family_t(AF_UNIX)
      withUnsafeMutableBytes(of: &storage.sun_path) { raw in
        for (index, byte) in path.utf8.enumerated() where index < raw.count - 1 {
          raw[index] = byte
        }
      }
      return try withUnsafeBytes(of: &storage) { (raw) throws(ClientError) -> Int32 in
        try attempt(
          family: AF_UNIX, address: raw.baseAddress!.assumingMemoryBound(to: sockaddr.self),
          length: socklen_t(MemoryLayout<sockaddr_un>.size), deadline: deadline, wake: wake,
          name: address)
      }
    case .tcp(let host, let port):
      var hints = addrinfo()
      hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
      hints.ai_family = AF_UNSPEC
      var list: UnsafeMutablePointer<addrinfo>?
      let status = getaddrinfo(host, String(port), &hints, &list)
      guard status == 0, let first = list else {
        throw .connectionFailed(
          address: address.description, reason: String(cString: gai_strerror(status)))
      }
      defer { freeaddrinfo(first) }
      var lastError = ClientError.connectionFailed(
        address: address.description, reason: "no address")
      var entry: UnsafeMutablePointer<addrinfo>? = first
      while let current = entry {
        do {
          return try attempt(
            family: current.pointee.ai_family, address: current.pointee.ai_addr,
            length: current.pointee.ai_addrlen, deadline: deadline, wake: wake, name: address)
        } catch {
          lastError = error
        }
        entry = current.pointee.ai_next
      }
      throw lastError
    }
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
