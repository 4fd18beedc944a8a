import Foundation
import Glibc

/// Blocking POSIX socket calls for the test driver, each bounded by a timeout.
enum NATSSocket {
  /// Connects to an IPv4 `host:port` within `timeout`, with `TCP_NODELAY` as the notes
  /// advise (a request round trip takes 44 ms without it).
  static func connect(host: String, port: UInt16, timeout: Duration) throws -> Int32 {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
    guard fd >= 0 else { throw NATSTestFailure("socket: errno \(errno)") }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    guard inet_pton(AF_INET, host, &address.sin_addr) == 1 else {
      close(fd)
      throw NATSTestFailure("not an IPv4 address: \(host)")
    }
    let flags = fcntl(fd, F_GETFL)
    _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK)
    let status = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    if status != 0 {
      guard errno == EINPROGRESS, wait(fd, events: Int16(POLLOUT), timeout: timeout) else {
        close(fd)
        throw NATSTestFailure("connect to \(host):\(port) failed")
      }
      var error: Int32 = 0
      var length = socklen_t(MemoryLayout<Int32>.size)
      getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length)
      guard error == 0 else {
        close(fd)
        throw NATSTestFailure("connect to \(host):\(port): errno \(error)")
      }
    }
    _ = fcntl(fd, F_SETFL, flags)
    var one: Int32 = 1
    setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
    return fd
  }

  /// Waits until `fd` is ready for `events`, up to `timeout`.
  static func wait(_ fd: Int32, events: Int16, timeout: Duration) -> Bool {
    var descriptor = pollfd(fd: fd, events: events, revents: 0)
    let milliseconds = max(
      0,
      Int32(timeout.components.seconds * 1000)
        + Int32(timeout.components.attoseconds / 1_000_000_000_000_000))
    return poll(&descriptor, 1, milliseconds) == 1
  }

  /// Sends every byte, or throws when the peer is gone.
  static func sendAll(_ fd: Int32, _ bytes: [UInt8]) throws {
    var offset = 0
    while offset < bytes.count {
      let sent = bytes[offset...].withUnsafeBytes {
        send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
      }
      if sent < 0 {
        if errno == EINTR { continue }
        throw NATSTestFailure("send: errno \(errno)")
      }
      offset += sent
    }
  }

  /// Reads what is available within `timeout`: bytes, an empty array on timeout, or `nil`
  /// at end of stream or on an error.
  static func receive(_ fd: Int32, timeout: Duration) -> [UInt8]? {
    guard wait(fd, events: Int16(POLLIN), timeout: timeout) else { return [] }
    var chunk = [UInt8](repeating: 0, count: 65536)
    let count = recv(fd, &chunk, chunk.count, 0)
    guard count > 0 else { return nil }
    return Array(chunk[..<count])
  }
}
