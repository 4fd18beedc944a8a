import Glibc

/// Where a test client connects: a TCP port on a numeric IPv4 or IPv6 address, or a Unix socket.
public enum SocketEndpoint: Sendable {
  case tcp(host: String, port: UInt16)
  case unix(path: String)

  /// A blocking stream socket connected to this endpoint, with `configure` applied before
  /// connecting (a small receive buffer, say); the caller closes it.
  public func connect(configure: (Int32) -> Void = { _ in }) throws -> Int32 {
    var storage = sockaddr_storage()
    let length = try fill(&storage)
    let fd = socket(
      Int32(storage.ss_family), Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
    guard fd >= 0 else { throw TestSupportError(call: "socket", code: errno) }
    configure(fd)
    let status = withUnsafePointer(to: &storage) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, length) }
    }
    guard status == 0 else {
      let code = errno
      close(fd)
      throw TestSupportError(call: "connect(\(self))", code: code)
    }
    return fd
  }

  /// Writes the address into `storage`; returns its length.
  private func fill(_ storage: inout sockaddr_storage) throws -> socklen_t {
    try withUnsafeMutableBytes(of: &storage) { raw in
      switch self {
      case .tcp(let host, let port):
        if host.contains(":") {
          var address = sockaddr_in6()
          address.sin6_family = sa_family_t(AF_INET6)
          address.sin6_port = port.bigEndian
          guard inet_pton(AF_INET6, host, &address.sin6_addr) == 1 else {
            throw TestSupportError("not a numeric IPv6 address: \(host)")
          }
          raw.storeBytes(of: address, as: sockaddr_in6.self)
          return socklen_t(MemoryLayout<sockaddr_in6>.size)
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        guard inet_pton(AF_INET, host, &address.sin_addr) == 1 else {
          throw TestSupportError("not a numeric IPv4 address: \(host)")
        }
        raw.storeBytes(of: address, as: sockaddr_in.self)
        return socklen_t(MemoryLayout<sockaddr_in>.size)
      case .unix(let path):
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
          throw TestSupportError("Unix socket path too long: \(path)")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes + [0]) }
        raw.storeBytes(of: address, as: sockaddr_un.self)
        return socklen_t(MemoryLayout<sockaddr_un>.size)
      }
    }
  }
}
