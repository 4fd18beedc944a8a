/// Why a request, a connection or a subscription failed.
public enum ClientError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The address could not be read (`host:port`, `[v6]:port` or `unix:/path`).
  case invalidAddress(String)
  /// No connection could be made to `address`; `reason` is the system's message.
  case connectionFailed(address: String, reason: String)
  /// The server answered a request with an error.
  case server(code: ServerErrorCode, message: String)
  /// The connection dropped before the reply arrived; the request may or may not have run.
  case connectionLost
  /// The request was made while the client was not connected (before ``ObservableClient/connect()``
  /// or while it reconnects).
  case notConnected
  /// ``ObservableClient/close()`` was called.
  case closed
  /// The server sent something this client cannot read.
  case protocolViolation(String)
  /// A value could not be encoded as JSON.
  case encodingFailed(String)

  /// A message for people.
  public var description: String {
    switch self {
    case .invalidAddress(let address): "invalid address '\(address)'"
    case .connectionFailed(let address, let reason): "cannot connect to \(address): \(reason)"
    case .server(let code, let message): "server error \(code.rawValue): \(message)"
    case .connectionLost: "the connection was lost before the reply arrived"
    case .notConnected: "not connected"
    case .closed: "the client was closed"
    case .protocolViolation(let detail): "protocol violation: \(detail)"
    case .encodingFailed(let detail): "cannot encode the value: \(detail)"
    }
  }
}
