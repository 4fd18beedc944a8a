import Glibc
import ObservablePOSIX

/// Where a test client connects: a TCP port on an IPv4 or IPv6 address, or a Unix socket.
public enum SocketEndpoint: Sendable {
  case tcp(host: String, port: UInt16)
  case unix(path: String)

  /// A blocking stream socket connected to this endpoint, with `configure` applied before
  /// connecting (a small receive buffer, say); the caller closes it.
  public func connect(configure: (Int32) -> Void = { _ in }) throws -> Int32 {
    let address = try socketAddress()
    let fd = socket(address.family, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
    guard fd >= 0 else { throw TestSupportError(call: "socket", code: errno) }
    configure(fd)
    let status = address.withUnsafeSockaddr { Glibc.connect(fd, $0, $1) }
    guard status == 0 else {
      let code = errno
      close(fd)
      throw TestSupportError(call: "connect(\(self))", code: code)
    }
    return fd
  }

  /// The address in the server's own terms (ObservablePOSIX's), so tests connect the way the
  /// server binds.
  private func socketAddress() throws -> SocketAddress {
    switch self {
    case .tcp(let host, let port):
      do {
        return try SocketAddress.resolve(host: host, port: port)[0]
      } catch {
        throw TestSupportError("cannot resolve \(host): \(error)")
      }
    case .unix(let path):
      // sun_path holds 108 bytes with the terminating zero; a longer path is a test's mistake.
      guard path.utf8.count < 108 else {
        throw TestSupportError("Unix socket path too long: \(path)")
      }
      return try SocketAddress(.unix(path: path))
    }
  }
}
