import Glibc

@testable import ObservablePOSIX
@testable import ObservableServer

/// A subscriber that never reads what it is sent, with a receive buffer made small before it
/// connects, so that the server, not the kernel, holds what waits for it.
final class SlowReader {
  /// Connects to 127.0.0.1:`port`, subscribes to `stream` and waits for the reply.
  init(port: UInt16, stream: String) throws {
    fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
    guard fd >= 0 else { throw SystemError(call: "socket", code: errno) }
    var size: Int32 = 4096
    setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
    let address = try SocketAddress(.tcp(host: "127.0.0.1", port: port))
    let status = try address.withSockaddr { pointer, length in connect(fd, pointer, length) }
    guard status == 0 else { throw SystemError(call: "connect", code: errno) }
    let request = Array("subscribe \(stream)\n".utf8)
    guard send(fd, request, request.count, Int32(MSG_NOSIGNAL)) == request.count else {
      throw SystemError(call: "send", code: errno)
    }
    // The greeting and the reply: two lines, read with a deadline.
    var lines = 0
    var byte: UInt8 = 0
    while lines < 2 {
      var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
      guard poll(&descriptor, 1, 5000) > 0, recv(fd, &byte, 1, 0) == 1 else {
        throw SystemError(call: "recv (subscribe reply)", code: errno)
      }
      if byte == 0x0A { lines += 1 }
    }
  }

  deinit { if !closed { close(fd) } }

  /// Closes with a TCP reset, leaving whatever the server had queued unread.
  func reset() {
    guard !closed else { return }
    closed = true
    var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
    setsockopt(fd, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
    close(fd)
  }

  private let fd: Int32
  private var closed = false
}
