/// An HTTP status code with its reason phrase, as sent on a status line.
public struct HTTPStatus: Sendable, Hashable, CustomStringConvertible {
  /// The three-digit code.
  public let code: Int
  /// The reason phrase; clients ignore it, people reading traces do not.
  public let reason: String

  /// A status; the reason should be the registered phrase for `code`.
  public init(code: Int, reason: String) {
    self.code = code
    self.reason = reason
  }

  /// `101 Switching Protocols`, the WebSocket handshake's answer.
  public static let switchingProtocols = HTTPStatus(code: 101, reason: "Switching Protocols")
  /// `200 OK`.
  public static let ok = HTTPStatus(code: 200, reason: "OK")
  /// `400 Bad Request`: the head is malformed.
  public static let badRequest = HTTPStatus(code: 400, reason: "Bad Request")
  /// `403 Forbidden`: for example a cross-origin upgrade.
  public static let forbidden = HTTPStatus(code: 403, reason: "Forbidden")
  /// `404 Not Found`.
  public static let notFound = HTTPStatus(code: 404, reason: "Not Found")
  /// `405 Method Not Allowed`; send `Allow` with it.
  public static let methodNotAllowed = HTTPStatus(code: 405, reason: "Method Not Allowed")
  /// `408 Request Timeout`: the head did not arrive in time.
  public static let requestTimeout = HTTPStatus(code: 408, reason: "Request Timeout")
  /// `426 Upgrade Required`; send `Upgrade` (and for WebSocket `Sec-WebSocket-Version`).
  public static let upgradeRequired = HTTPStatus(code: 426, reason: "Upgrade Required")
  /// `431 Request Header Fields Too Large`: the head passed the parser's cap.
  public static let requestHeaderFieldsTooLarge = HTTPStatus(
    code: 431, reason: "Request Header Fields Too Large")
  /// `501 Not Implemented`: a transfer coding or request body this server does not read.
  public static let notImplemented = HTTPStatus(code: 501, reason: "Not Implemented")
  /// `503 Service Unavailable`: for example `/healthz` during shutdown.
  public static let serviceUnavailable = HTTPStatus(code: 503, reason: "Service Unavailable")
  /// `505 HTTP Version Not Supported`: neither HTTP/1.1 nor HTTP/1.0.
  public static let httpVersionNotSupported = HTTPStatus(
    code: 505, reason: "HTTP Version Not Supported")

  /// `code reason`, as on the status line.
  public var description: String { "\(code) \(reason)" }
}
