import Glibc

extension SocketAddress {
  /// Every address `host` resolves to for a TCP stream, in `getaddrinfo`'s order (at least
  /// one); `forListening` asks for the wildcard address when `host` is empty.
  ///
  /// The one place that calls `getaddrinfo`, for the server's listeners and cluster link and
  /// for the client. It may block on DNS, so a loop thread must not call it for a name it does
  /// not control.
  package static func lookUp(host: String, port: UInt16, forListening: Bool = false)
    throws(AddressLookupFailure) -> [SocketAddress]
  {
    var hints = addrinfo()
    hints.ai_flags = AI_NUMERICSERV | (forListening ? AI_PASSIVE : 0)
    hints.ai_family = AF_UNSPEC
    hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
    var list: UnsafeMutablePointer<addrinfo>?
    let status = getaddrinfo(host, String(port), &hints, &list)
    let systemCode = errno
    guard status == 0, let first = list else {
      throw AddressLookupFailure(status: status == 0 ? EAI_NONAME : status, systemCode: systemCode)
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
      throw AddressLookupFailure(status: EAI_NONAME, systemCode: 0)
    }
    return addresses
  }
}
