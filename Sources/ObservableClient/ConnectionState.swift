/// Where an ``ObservableClient``'s connection stands; observe it with
/// ``ObservableClient/connectionState``.
public enum ConnectionState: Sendable, Equatable, CustomStringConvertible {
  /// ``ObservableClient/connect()`` has not been called yet.
  case idle
  /// A connection attempt is under way (the first, or a reconnection).
  case connecting
  /// Connected, greeted, authenticated; every stream with local observers is subscribed again.
  case connected
  /// The connection dropped or an attempt failed; the client waits `retryIn`, then tries again.
  case disconnected(reason: String, retryIn: Duration)
  /// The client was closed, or its first connection failed; it will not connect again.
  case closed

  /// A short phrase for logs and notices.
  public var description: String {
    switch self {
    case .idle: "idle"
    case .connecting: "connecting"
    case .connected: "connected"
    case .disconnected(let reason, let retryIn): "disconnected (\(reason)), retrying in \(retryIn)"
    case .closed: "closed"
    }
  }
}
