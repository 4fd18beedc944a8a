import WebSocket

/// The statuses the SSE route and the HTTP API answer besides those the WebSocket upgrade uses.
extension HTTPStatus {
  /// `401 Unauthorized`: no token, or a wrong one; sent with `WWW-Authenticate`.
  static let unauthorized = HTTPStatus(code: 401, reason: "Unauthorized")
}
