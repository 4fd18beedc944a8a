import Glibc

/// A resolved socket address, ready for `bind` or `connect`.
struct SocketAddress {
  let family: Int32
  private var storage = sockaddr_storage()
  private(set) var length: socklen_t

  /// Resolves `address` for binding; host names go through `getaddrinfo`.
  init(_ address: ListenAddress) throws(SystemError) {
    switch address {
    case .unix(let path):
      family = AF_UNIX
      var unixAddress = sockaddr_un()
      unixAddress.sun_family = sa_family_t(AF_UNIX)
      withUnsafeMutableBytes(of: &unixAddress.sun_path) { raw in
        raw.copyBytes(from: path.utf8.prefix(raw.count - 1))
      }
      length = socklen_t(MemoryLayout<sockaddr_un>.size)
      withUnsafeMutableBytes(of: &storage) { $0.storeBytes(of: unixAddress, as: sockaddr_un.self) }
    case .tcp(let host, let port):
      var hints = addrinfo()
      hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV
      hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
      var list: UnsafeMutablePointer<addrinfo>?
      let status = getaddrinfo(host, String(port), &hints, &list)
      guard status == 0, let first = list else {
        throw SystemError(call: "getaddrinfo(\(host))", code: status == EAI_SYSTEM ? errno : EINVAL)
      }
      defer { freeaddrinfo(list) }
      family = first.pointee.ai_family
      length = first.pointee.ai_addrlen
      withUnsafeMutableBytes(of: &storage) { target in
        target.copyMemory(
          from: UnsafeRawBufferPointer(
            start: first.pointee.ai_addr, count: Int(first.pointee.ai_addrlen))
        )
      }
    }
  }

  /// Runs `body` with a `sockaddr` pointer to this address.
  func withSockaddr<Result>(
    _ body: (UnsafePointer<sockaddr>, socklen_t) throws(SystemError) -> Result
  ) throws(SystemError) -> Result {
    var copy = storage
    return try withUnsafePointer(to: &copy) { pointer throws(SystemError) in
      try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address throws(SystemError) in
        try body(address, length)
      }
    }
  }
}
