import ObservableWire
import WebSocket

/// A session's reply to an HTTP API call, as the HTTP answer: a success is `200` with the
/// reply's members (without the `id` the exchange numbered it with); an error is the status
/// its code stands for, with the same `code` and `message` in the body.
enum HTTPAPIAnswer {
  /// The answer to `call`, whose request the session answered with `reply`; `retained` is what
  /// the session sent before the reply (a `get`'s retained line, or nothing).
  static func response(
    to reply: [JSONValue.Member], for call: HTTPAPICall, retained: [UInt8]
  ) -> HTTPResponse {
    let closing = call.wantsClose
    guard reply.first(where: { $0.key == "ok" })?.value == .bool(true) else {
      let error = reply.first { $0.key == "error" }?.value
      guard case .object(let fields) = error,
        case .string(let code) = fields.first(where: { $0.key == "code" })?.value
      else {
        return .jsonError(
          .internalServerError, "internal", "the server's reply had no error code",
          closesConnection: closing)
      }
      let message: String
      if case .string(let text) = fields.first(where: { $0.key == "message" })?.value {
        message = text
      } else {
        message = code
      }
      let status = status(of: code)
      let headers =
        status == .unauthorized ? [("WWW-Authenticate", #"Bearer realm="observable""#)] : []
      return .jsonError(status, code, message, headers: headers, closesConnection: closing)
    }
    if case .get(let name) = call.operation {
      guard !retained.isEmpty else {
        return .jsonError(
          .notFound, "not_found", "\(name) retains no value", closesConnection: closing)
      }
      return json(retained, closing: closing)
    }
    var body: [UInt8] = []
    JSONValue.object(reply.filter { $0.key != "id" }).appendCompact(to: &body)
    body.append(UInt8(ascii: "\n"))
    return json(body, closing: closing)
  }

  /// The HTTP status of the line protocol's error `code`.
  static func status(of code: String) -> HTTPStatus {
    switch ErrorCode(rawValue: code) {
    case .unauthorized: .unauthorized
    case .forbidden: .forbidden
    case .readOnly: .conflict
    case .lineTooLong: .contentTooLarge
    case .limitExceeded, .tooManyConnections: .tooManyRequests
    case .unsupported: .notImplemented
    case .unavailable, .slowConsumer: .serviceUnavailable
    default: .badRequest
    }
  }

  /// A `200` with the JSON `body`, not to be cached.
  private static func json(_ body: [UInt8], closing: Bool) -> HTTPResponse {
    HTTPResponse(
      status: .ok, headers: [("Content-Type", "application/json"), ("Cache-Control", "no-store")],
      body: body, closesConnection: closing)
  }
}

extension HTTPStatus {
  /// `500 Internal Server Error`: the session answered in a way the API does not know.
  static let internalServerError = HTTPStatus(code: 500, reason: "Internal Server Error")
}
