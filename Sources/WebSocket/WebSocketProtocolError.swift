/// A peer broke RFC 6455 (or a limit): close with `closeCode`, then drop the connection.
public struct WebSocketProtocolError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The code to send in the close frame.
  public let closeCode: WebSocketCloseCode
  /// What happened, for logs and for the close frame's reason (keep it under 123 bytes).
  public let reason: String

  /// An error closing with `closeCode`.
  public init(_ closeCode: WebSocketCloseCode, _ reason: String) {
    self.closeCode = closeCode
    self.reason = reason
  }

  /// `code: reason`.
  public var description: String { "\(closeCode): \(reason)" }
}
