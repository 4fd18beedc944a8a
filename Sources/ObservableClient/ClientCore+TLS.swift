import TLS

extension ClientCore {
  /// Starts TLS on the connected `fd` when the configuration asks for it, and runs the
  /// handshake before anything else is read or written; `nil` for a plain connection.
  ///
  /// The context is made again for every connection, so a reconnection picks up renewed CA
  /// and client certificate files.
  func startTLS(on fd: Int32, until deadline: ContinuousClock.Instant) throws(ClientError)
    -> TLSSocket?
  {
    guard let options = configuration.tls, let wake else { return nil }
    let context: TLSContext
    do {
      context = try TLSContext(
        client: TLSClientConfiguration(
          serverVerification: options.verifiesServer ? .verify(caFile: options.caFile) : .insecure,
          certificateChainFile: options.certificateFile, privateKeyFile: options.privateKeyFile))
    } catch {
      throw .connectionFailed(address: address.description, reason: "\(error)")
    }
    let serverName: String?
    switch address {
    case .tcp(let host, _): serverName = options.serverName ?? host
    case .unix: serverName = options.serverName
    }
    let socket = try TLSSocket(
      fd: fd, wake: wake, context: context, serverName: serverName,
      address: address.description)
    try socket.handshake(until: deadline)
    return socket
  }
}
