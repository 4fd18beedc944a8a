import ObservableWire
import WebSocket

/// The error answer of `/sse` and the HTTP API: a JSON body with the same `code` and
/// `message` as the line protocol's error replies, so one client parses both.
extension HTTPResponse {
  /// `{"error":{"code":CODE,"message":MESSAGE}}` with `status`; the connection closes after it
  /// unless `closesConnection` is false.
  static func jsonError(
    _ status: HTTPStatus, _ code: String, _ message: String, headers: [(String, String)] = [],
    closesConnection: Bool = true
  ) -> HTTPResponse {
    var body: [UInt8] = []
    body.append(literal: #"{"error":{"code":"#)
    JSONStringEncoding.append(code, to: &body)
    body.append(literal: #","message":"#)
    JSONStringEncoding.append(message, to: &body)
    body.append(literal: "}}\n")
    return HTTPResponse(
      status: status, headers: [("Content-Type", "application/json")] + headers, body: body,
      closesConnection: closesConnection)
  }
}
