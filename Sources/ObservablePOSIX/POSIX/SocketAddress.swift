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

  init(copying address: UnsafePointer<sockaddr>, length: socklen_t, family: Int32) {
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
    do {
      return try lookUp(host: host, port: port, forListening: forListening)
    } catch {
      throw SystemError(
        call: "getaddrinfo(\(host))",
        code: error.status == EAI_SYSTEM ? error.systemCode : forListening ? EINVAL : EHOSTUNREACH)
    }
  }

  /// Runs `body` with a `sockaddr` pointer to this address.
  package func withSockaddr<Result>(
    _ body: (UnsafePointer<sockaddr>, socklen_t) throws(SystemError) -> Result
  ) throws(SystemError) -> Result {
    try withUnsafeSockaddr(body)
  }

  /// Runs `body` with a `sockaddr` pointer to this address, throwing what `body` throws (the
  /// client's own errors, or nothing).
  package func withUnsafeSockaddr<Result, Failure: Error>(
    _ body: (UnsafePointer<sockaddr>, socklen_t) throws(Failure) -> Result
  ) throws(Failure) -> Result {
    var copy = storage
    return try withUnsafePointer(to: &copy) { pointer throws(Failure) in
      try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address throws(Failure) in
        try body(address, length)
      }
    }
  }
}
