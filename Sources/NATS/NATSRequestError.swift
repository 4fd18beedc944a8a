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
