import Glibc
import ObservablePOSIX
import ObservableServer

/// A TCP endpoint on this machine, the only kind of address the benchmark will load.
///
/// A load generator that accepts any address is a way to flood someone else's server, so
/// anything outside 127.0.0.0/8 and ::1 is refused before a socket is made.
struct LoopbackAddress: Sendable, CustomStringConvertible {
  /// The IPv4 address in network byte order, or `nil` for ::1.
  let ipv4: in_addr_t?
  let port: UInt16

  /// An IPv4 loopback address, such as a port the benchmark picked for its own server.
  init(ipv4Port port: UInt16) {
    ipv4 = inet_addr("127.0.0.1")
    self.port = port
  }

  /// Parses `HOST:PORT` or `[::1]:PORT`, where HOST is a numeric address or `localhost`.
  init(parsing text: String) throws(BenchError) {
    guard case .tcp(let host, let port)? = ListenAddress(text) else {
      throw .refused("--connect \(text): expected HOST:PORT or [::1]:PORT")
    }
    guard port != 0 else { throw .refused("--connect \(text): port 0 is not a server") }
    self.port = port
    var v4 = in_addr()
    var v6 = in6_addr()
    if host == "localhost" {
      ipv4 = inet_addr("127.0.0.1")
    } else if inet_pton(AF_INET, host, &v4) == 1 {
      // The first octet is the first byte in memory whatever the host's byte order.
      let firstOctet = withUnsafeBytes(of: v4.s_addr) { $0[0] }
      guard firstOctet == 127 else {
        throw .refused("--connect \(text): only loopback servers (127.0.0.0/8, ::1) are measured")
      }
      ipv4 = v4.s_addr
    } else if inet_pton(AF_INET6, host, &v6) == 1 {
      let isLoopback = withUnsafeBytes(of: v6) { bytes in
        bytes.prefix(15).allSatisfy { $0 == 0 } && bytes[15] == 1
      }
      guard isLoopback else {
        throw .refused("--connect \(text): only loopback servers (127.0.0.0/8, ::1) are measured")
      }
      ipv4 = nil
    } else {
      throw .refused("--connect \(text): HOST must be a numeric address or localhost")
    }
  }

  var family: Int32 { ipv4 == nil ? AF_INET6 : AF_INET }

  /// The numeric host, without the port.
  var host: String {
    guard let ipv4 else { return "::1" }
    return withUnsafeBytes(of: ipv4) { $0.map(String.init).joined(separator: ".") }
  }

  /// The same address in the server library's terms, for its health check.
  var listenAddress: ListenAddress { .tcp(host: host, port: port) }

  var description: String { listenAddress.description }

  /// Calls `body` with the socket address, for connect(2).
  func withSocketAddress<Result>(
    _ body: (UnsafePointer<sockaddr>, socklen_t) -> Result
  ) -> Result {
    if let ipv4 {
      var address = sockaddr_in()
      address.sin_family = sa_family_t(AF_INET)
      address.sin_port = port.bigEndian
      address.sin_addr = in_addr(s_addr: ipv4)
      return withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
          body($0, socklen_t(MemoryLayout<sockaddr_in>.size))
        }
      }
    }
    var address = sockaddr_in6()
    address.sin6_family = sa_family_t(AF_INET6)
    address.sin6_port = port.bigEndian
    address.sin6_addr = in6addr_loopback
    return withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        body($0, socklen_t(MemoryLayout<sockaddr_in6>.size))
      }
    }
  }
}
