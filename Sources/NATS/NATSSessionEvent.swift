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
