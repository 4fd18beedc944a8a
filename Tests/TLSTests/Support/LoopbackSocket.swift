import Foundation
import Glibc

/// Blocking-free loopback sockets for the tests, each call bounded in time.
enum LoopbackSocket {
  struct Failure: Error, CustomStringConvertible {
    let description: String
  }

  /// A socket listening on 127.0.0.1 at a port the kernel picks, and that port.
  static func listen() throws -> (descriptor: Int32, port: UInt16) {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
    guard fd >= 0 else { throw Failure(description: "socket: errno \(errno)") }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(fd, $0, length) == 0 && Glibc.listen(fd, 8) == 0 && getsockname(fd, $0, &length) == 0
      }
    }
    guard bound else {
      close(fd)
      throw Failure(description: "bind/listen: errno \(errno)")
    }
    return (fd, UInt16(bigEndian: address.sin_port))
  }

  /// Accepts one connection on `listener` within `timeout`, non-blocking.
  static func accept(_ listener: Int32, timeout: Duration = .seconds(10)) throws -> Int32 {
    var descriptor = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
    guard poll(&descriptor, 1, milliseconds(timeout)) == 1 else {
      throw Failure(description: "no connection within \(timeout)")
    }
    let fd = Glibc.accept(listener, nil, nil)
    guard fd >= 0 else { throw Failure(description: "accept: errno \(errno)") }
    _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
    return fd
  }

  /// Connects to 127.0.0.1:`port` within `timeout`, and leaves the socket non-blocking.
  static func connect(port: UInt16, timeout: Duration = .seconds(10)) throws -> Int32 {
    let deadline = ContinuousClock.now + timeout
    while true {
      let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
      var address = sockaddr_in()
      address.sin_family = sa_family_t(AF_INET)
      address.sin_port = port.bigEndian
      address.sin_addr.s_addr = inet_addr("127.0.0.1")
      let status = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
          Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
        }
      }
      if status == 0 {
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        return fd
      }
      close(fd)
      // A peer process may not listen yet: retry until the deadline.
      guard ContinuousClock.now < deadline else {
        throw Failure(description: "connect to port \(port): errno \(errno)")
      }
      usleep(20_000)
    }
  }

  /// `timeout` in whole milliseconds, for poll(2).
  static func milliseconds(_ timeout: Duration) -> Int32 {
    Int32(
      clamping: timeout.components.seconds * 1000 + timeout.components.attoseconds
        / 1_000_000_000_000_000)
  }
}
