import CLinux
import Glibc

/// Small throwing wrappers around the socket calls the server makes.
///
/// Each goes through ``syscall(_:_:)``, so `EINTR` and `EAGAIN` are handled in one place.
package enum SocketCalls {
  /// Creates a non-blocking listening socket bound to `address`.
  package static func listen(on address: ListenAddress, backlog: Int32) throws(SystemError) -> Int32
  {
    let resolved = try SocketAddress(address)
    let fd = try blockingSyscall("socket") {
      socket(
        resolved.family,
        Int32(SOCK_STREAM.rawValue | SOCK_NONBLOCK.rawValue | SOCK_CLOEXEC.rawValue), 0)
    }
    do {
      if resolved.family != AF_UNIX { try setOption(fd, SOL_SOCKET, SO_REUSEADDR, 1) }
      // Lets `[::]:P` and `0.0.0.0:P` be listened on side by side.
      if resolved.family == AF_INET6 { try setOption(fd, Int32(IPPROTO_IPV6), IPV6_V6ONLY, 1) }
      _ = try resolved.withSockaddr { pointer, length throws(SystemError) in
        try blockingSyscall("bind") { bind(fd, pointer, length) }
      }
      _ = try blockingSyscall("listen") { Glibc.listen(fd, backlog) }
      return fd
    } catch {
      close(fd)
      // The address in the call's name, so that "cannot start" says which one is taken.
      throw SystemError(call: "\(error.call) \(address)", code: error.code)
    }
  }

  /// Accepts one pending connection as a non-blocking descriptor, or `nil` when none is waiting.
  package static func accept(_ listener: Int32) throws(SystemError) -> Int32? {
    switch try syscall("accept4", { observable_accept_nonblocking(listener) }) {
    case .done(let fd): return fd
    case .wouldBlock: return nil
    }
  }

  /// Reads what is available into `buffer`; `.done(0)` means the peer closed.
  package static func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer)
    throws(SystemError)
    -> IOResult<Int>
  {
    try syscall("read") { Glibc.read(fd, buffer.baseAddress, buffer.count) }
  }

  /// Sends as much of `bytes` as the socket takes, without raising `SIGPIPE`.
  package static func send(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) throws(SystemError)
    -> IOResult<Int>
  {
    try syscall("send") { Glibc.send(fd, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL)) }
  }

  /// Has the kernel drop the connection when the peer acknowledges nothing for `timeout`:
  /// keepalive probes while the connection is idle, `TCP_USER_TIMEOUT` while sent data waits
  /// for an acknowledgement. Reads and writes then fail with `ETIMEDOUT`.
  ///
  /// Probes start after most of the timeout and three of them, a sixth of it apart, must go
  /// unanswered, so an idle peer is dropped after about `timeout` (at least 4 s: the kernel
  /// counts whole seconds).
  ///
  /// Each connection starts probing after an idle time of its own, between half and all of
  /// that: connections opened together would otherwise probe together, and a burst of probes
  /// past the kernel's receive backlog (1,000 packets per CPU) is dropped, so that three lost
  /// rounds end live connections as dead. That happened to 15,000 of 16,667 idle loopback
  /// connections per server in a 100,000-subscriber benchmark.
  package static func dropWhenSilent(_ fd: Int32, after timeout: Duration) throws(SystemError) {
    let seconds = max(1, Int32(clamping: timeout.components.seconds))
    let count: Int32 = 3
    let interval = max(1, seconds / 6)
    let idle = max(1, seconds - count * interval)
    try setOption(fd, SOL_SOCKET, SO_KEEPALIVE, 1)
    try setOption(fd, Int32(IPPROTO_TCP), TCP_KEEPIDLE, Int32.random(in: (idle + 1) / 2...idle))
    try setOption(fd, Int32(IPPROTO_TCP), TCP_KEEPINTVL, interval)
    try setOption(fd, Int32(IPPROTO_TCP), TCP_KEEPCNT, count)
    try setOption(
      fd, Int32(IPPROTO_TCP), TCP_USER_TIMEOUT,
      seconds.multipliedReportingOverflow(by: 1000).partialValue)
  }

  /// Sets an integer socket option.
  package static func setOption(_ fd: Int32, _ level: Int32, _ name: Int32, _ value: Int32)
    throws(SystemError)
  {
    var value = value
    _ = try blockingSyscall("setsockopt") {
      setsockopt(fd, level, name, &value, socklen_t(MemoryLayout<Int32>.size))
    }
  }

  /// The TCP port a socket is bound to, or `nil` for other families.
  package static func boundPort(_ fd: Int32) -> UInt16? {
    var storage = sockaddr_storage()
    var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
    let status = withUnsafeMutablePointer(to: &storage) { pointer in
      pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
    }
    guard status == 0 else { return nil }
    return withUnsafeBytes(of: storage) { raw in
      switch Int32(storage.ss_family) {
      case AF_INET: UInt16(bigEndian: raw.load(as: sockaddr_in.self).sin_port)
      case AF_INET6: UInt16(bigEndian: raw.load(as: sockaddr_in6.self).sin6_port)
      default: nil
      }
    }
  }
}

extension SocketCalls {
  /// The peer's address as `host:port`, or the listener's label for Unix sockets.
  package static func peerName(_ fd: Int32, listener: String) -> String {
    var storage = sockaddr_storage()
    var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
    let status = withUnsafeMutablePointer(to: &storage) { pointer in
      pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { getpeername(fd, $0, &length) }
    }
    guard status == 0 else { return listener }
    var host = [CChar](repeating: 0, count: Int(NI_MAXHOST))
    var service = [CChar](repeating: 0, count: Int(NI_MAXSERV))
    let family = Int32(storage.ss_family)
    guard family == AF_INET || family == AF_INET6 else { return listener }
    let resolved = withUnsafePointer(to: &storage) { pointer in
      pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        getnameinfo(
          $0, length, &host, socklen_t(host.count), &service, socklen_t(service.count),
          NI_NUMERICHOST | NI_NUMERICSERV)
      }
    }
    guard resolved == 0 else { return listener }
    let hostText = String(
      decoding: host.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    let serviceText = String(
      decoding: service.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    return family == AF_INET6 ? "[\(hostText)]:\(serviceText)" : "\(hostText):\(serviceText)"
  }
}
