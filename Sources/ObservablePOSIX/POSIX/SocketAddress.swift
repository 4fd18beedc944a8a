import Glibc

/// A resolved socket address, ready for `bind` or `connect`.
package struct SocketAddress {
  package let family: Int32
  private var storage = sockaddr_storage()
  private(set) var length: socklen_t

  /// Resolves `address` for binding; host names go through `getaddrinfo`.
  package init(_ address: ListenAddress) throws(SystemError) {
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
      self = try Self.resolve(host: host, port: port, forListening: true)[0]
    }
  }

  private init(copying address: UnsafePointer<sockaddr>, length: socklen_t, family: Int32) {
    self.family = family
    self.length = length
    withUnsafeMutableBytes(of: &storage) { target in
      target.copyMemory(from: UnsafeRawBufferPointer(start: address, count: Int(length)))
    }
  }

  /// Every address `host` resolves to for a TCP stream, in `getaddrinfo`'s order (at least
  /// one); `forListening` asks for the wildcard address when `host` is empty. It may block on
  /// DNS, so a loop thread must not call it for a name it does not control.
  package static func resolve(host: String, port: UInt16, forListening: Bool = false)
    throws(SystemError) -> [SocketAddress]
  {
    var hints = addrinfo()
    hints.ai_flags = AI_NUMERICSERV | (forListening ? AI_PASSIVE : 0)
    hints.ai_family = AF_UNSPEC
    hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
    var list: UnsafeMutablePointer<addrinfo>?
    let status = getaddrinfo(host, String(port), &hints, &list)
    guard status == 0, let first = list else {
      throw SystemError(
        call: "getaddrinfo(\(host))",
        code: status == EAI_SYSTEM ? errno : forListening ? EINVAL : EHOSTUNREACH)
    }
    defer { freeaddrinfo(list) }
    var addresses: [SocketAddress] = []
    var entry: UnsafeMutablePointer<addrinfo>? = first
    while let current = entry {
      if let address = current.pointee.ai_addr {
        addresses.append(
          SocketAddress(
            copying: address, length: current.pointee.ai_addrlen,
            family: current.pointee.ai_family))
      }
      entry = current.pointee.ai_next
    }
    guard !addresses.isEmpty else {
      throw SystemError(call: "getaddrinfo(\(host))", code: EHOSTUNREACH)
    }
    return addresses
  }

  /// Runs `body` with a `sockaddr` pointer to this address.
  package func withSockaddr<Result>(
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
