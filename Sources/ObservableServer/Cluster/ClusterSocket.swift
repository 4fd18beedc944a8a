import Glibc

/// The NATS client socket's calls: a non-blocking connect with `TCP_NODELAY`, whose outcome
/// epoll reports.
enum ClusterSocket {
  /// Starts connecting to `host:port` and returns the descriptor; the connect completes when
  /// it becomes writable. The host is resolved here, on the loop: names are looked up only when
  /// connecting, which is rare, and NATS servers are mostly given as addresses or local names.
  static func connect(host: String, port: UInt16) throws(SystemError) -> Int32 {
    var hints = addrinfo()
    hints.ai_family = AF_UNSPEC
    hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
    var list: UnsafeMutablePointer<addrinfo>?
    let status = getaddrinfo(host, String(port), &hints, &list)
    guard status == 0, let first = list else {
      throw SystemError(call: "getaddrinfo(\(host))", code: EHOSTUNREACH)
    }
    defer { freeaddrinfo(list) }
    let fd = try blockingSyscall("socket") {
      socket(
        first.pointee.ai_family,
        Int32(SOCK_STREAM.rawValue | SOCK_NONBLOCK.rawValue | SOCK_CLOEXEC.rawValue), 0)
    }
    do throws(SystemError) {
      // Without it a request's round trip took 44 ms instead of 145 µs (Nagle and delayed ACK).
      try SocketCalls.setOption(fd, Int32(IPPROTO_TCP), TCP_NODELAY, 1)
      if Glibc.connect(fd, first.pointee.ai_addr, first.pointee.ai_addrlen) != 0,
        errno != EINPROGRESS
      {
        throw SystemError(call: "connect", code: errno)
      }
      return fd
    } catch {
      close(fd)
      throw error
    }
  }

  /// Whether the connect started on `fd` succeeded, once epoll reports it writable.
  static func connected(_ fd: Int32) -> Bool {
    var error: Int32 = 0
    var length = socklen_t(MemoryLayout<Int32>.size)
    guard getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length) == 0 else { return false }
    return error == 0
  }
}
