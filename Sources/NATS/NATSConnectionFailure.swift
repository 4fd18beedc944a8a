/// Why the session declared the connection dead.
public enum NATSConnectionFailure: Sendable, Equatable, CustomStringConvertible {
  /// The server did not answer `maxPingsOut` PINGs in a row.
  case pingTimeout
  /// The server did not complete INFO, CONNECT and PING in time.
  case connectTimeout

  /// A sentence for the log.
  public var description: String {
    switch self {
    case .pingTimeout: "the NATS server stopped answering PING"
    case .connectTimeout: "the NATS server did not complete the handshake in time"
    }
  }
}
