import WebSocket

/// The statuses the SSE route and the HTTP API answer besides those the WebSocket upgrade uses.
extension HTTPStatus {
  /// `401 Unauthorized`: no token, or a wrong one; sent with `WWW-Authenticate`.
  static let unauthorized = HTTPStatus(code: 401, reason: "Unauthorized")
  /// `409 Conflict`: a publish to a stream that takes none (a built-in or exec stream).
  static let conflict = HTTPStatus(code: 409, reason: "Conflict")
  /// `411 Length Required`: a body without `Content-Length`.
  static let lengthRequired = HTTPStatus(code: 411, reason: "Length Required")
  /// `413 Content Too Large`: a body past the limit.
  static let contentTooLarge = HTTPStatus(code: 413, reason: "Content Too Large")
  /// `415 Unsupported Media Type`: a body that is not `application/json`.
  static let unsupportedMediaType = HTTPStatus(code: 415, reason: "Unsupported Media Type")
  /// `429 Too Many Requests`: a limit of the server was reached (`limit_exceeded`).
  static let tooManyRequests = HTTPStatus(code: 429, reason: "Too Many Requests")
}
