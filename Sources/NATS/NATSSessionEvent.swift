/// What the session reports to its caller after bytes arrive or time passes.
public enum NATSSessionEvent: Sendable, Equatable {
  /// The server answered the first PING: commands now reach it. Carries its INFO.
  case connected(NATSServerInfo)
  /// A later INFO, such as one with new `connect_urls` or lame duck mode.
  case serverInfo(NATSServerInfo)
  /// A message for one of the caller's subscriptions.
  case message(NATSMessage)
  /// A request finished: its reply, or why there is none.
  case reply(NATSRequestID, Result<NATSMessage, NATSRequestError>)
  /// An `-ERR` from the server; most are followed by the server closing the connection.
  case serverError(String)
  /// The connection is dead although the socket may look open: the caller closes it and
  /// reconnects.
  case dead(NATSConnectionFailure)
}

/// Identifies one request, to match its reply or failure.
public struct NATSRequestID: Sendable, Hashable, CustomStringConvertible {
  /// The number that is also the last token of the request's reply subject.
  public var value: UInt64

  /// An identifier from its number.
  public init(_ value: UInt64) { self.value = value }

  /// The number, for logs.
  public var description: String { "request \(value)" }
}

/// Why a request got no reply.
public enum NATSRequestError: Error, Equatable, CustomStringConvertible {
  /// Nothing answered before the deadline.
  case timeout
  /// The server said that no subscriber listens on the subject (status 503).
  case noResponders
  /// The connection closed before the reply came; the request may or may not have been
  /// handled.
  case connectionLost

  /// A sentence for the log.
  public var description: String {
    switch self {
    case .timeout: "no reply before the deadline"
    case .noResponders: "no responders on the subject"
    case .connectionLost: "connection lost before the reply"
    }
  }
}

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
