import ObservableWire
import WebSocket

/// The HTTP API's routes: `POST /publish`, `POST /clear`, `GET /streams`, `GET /streams/NAME`.
///
/// The head is checked here, in this order: the method (405 with `Allow`), the shutdown (503),
/// the credential (401, the same check as `/sse`), then for a body the content type (415) and
/// its length (411 without `Content-Length`, 413 past ``maximumBodyBytes``; the head parser
/// answers a chunked body 501). What is left to
/// judge (the body, the permissions, the store) the session judges, as for a line.
extension HTTPRouter {
  /// What an API request's head leads to.
  enum APIStart {
    /// Read the body, then hand the call to the session.
    case call(HTTPAPICall)
    /// Answer at once.
    case respond(HTTPResponse)
  }

  /// The largest request body accepted; a larger `Content-Length` is answered with 413.
  static let maximumBodyBytes = 1 << 20

  /// The route of an API request: the connection becomes a keep-alive exchange with its own
  /// session (``HTTPExchangeFraming``); nil when `head` names no API path.
  func apiRoute(_ head: HTTPRequestHead) -> Route? {
    guard let start = apiStart(head) else { return nil }
    switch start {
    case .respond(let response): return .respond(response, includingBody: true)
    case .call(let call):
      return .stream(head: [], framing: HTTPExchangeFraming(router: self, first: call))
    }
  }

  /// What `head` leads to, if it names an API path.
  func apiStart(_ head: HTTPRequestHead) -> APIStart? {
    let closing = head.wantsClose
    let query = HTTPQuery(head.query)
    let operation: HTTPAPICall.Operation
    let method: String
    switch head.path {
    case "/publish": (operation, method) = (.publish, "POST")
    case "/clear": (operation, method) = (.clear, "POST")
    case "/streams":
      var limit: Int?
      if let text = query.first("limit") {
        guard let count = Int(text), (1...StreamListEncoder.pageSize).contains(count) else {
          return .respond(
            HTTPAPICall.badRequest(
              "limit must be a whole number from 1 to \(StreamListEncoder.pageSize)",
              closing: closing))
        }
        limit = count
      }
      operation = .list(pattern: query.first("pattern"), after: query.first("after"), limit: limit)
      method = "GET"
    default:
      guard head.path.hasPrefix(Self.streamPrefix), head.path.count > Self.streamPrefix.count
      else { return nil }
      operation = .get(String(head.path.dropFirst(Self.streamPrefix.count)))
      method = "GET"
    }
    guard head.method == method else {
      return .respond(
        .jsonError(
          .methodNotAllowed, "method_not_allowed", "use \(method)", headers: [("Allow", method)],
          closesConnection: closing))
    }
    guard isServing() else {
      return .respond(
        .jsonError(
          .serviceUnavailable, ErrorCode.unavailable.rawValue, "the server is shutting down"))
    }
    let credential = presentedCredential(head, query)
    if let refusal = refusal(for: credential) { return .respond(refusal) }
    let length: Int
    switch bodyLength(head, expectingJSON: method == "POST") {
    case .success(let count): length = count
    case .failure(let refusal): return .respond(refusal.response)
    }
    return .call(
      HTTPAPICall(
        operation: operation,
        credential: access?.requiresAuthentication == true ? credential : nil,
        bodyLength: length, wantsClose: closing))
  }

  private static let streamPrefix = "/streams/"

  /// How many body bytes follow `head`. A body the API reads must be JSON and have a length;
  /// one it does not read (a `GET`'s) must have a length too, so that the next request is found.
  private func bodyLength(
    _ head: HTTPRequestHead, expectingJSON: Bool
  ) -> Result<Int, HTTPAPIRefusal> {
    if expectingJSON {
      let type = head.headers["Content-Type"].map { $0.split(separator: ";")[0] } ?? ""
      guard type.trimmingCharacters(in: " \t").lowercased() == "application/json" else {
        return .failure(
          HTTPAPIRefusal(
            response: .jsonError(
              .unsupportedMediaType, "unsupported_media_type",
              "send the body as Content-Type: application/json")))
      }
    }
    guard let text = head.headers["Content-Length"] else {
      guard !expectingJSON else {
        return .failure(
          HTTPAPIRefusal(
            response: .jsonError(
              .lengthRequired, "length_required", "send the body with Content-Length")))
      }
      return .success(0)
    }
    guard let length = Int(text), length >= 0 else {
      return .failure(
        HTTPAPIRefusal(
          response: .jsonError(
            .badRequest, ErrorCode.badRequest.rawValue, "Content-Length is not a length")))
    }
    guard length <= Self.maximumBodyBytes else {
      return .failure(
        HTTPAPIRefusal(
          response: .jsonError(
            .contentTooLarge, "content_too_large",
            "the body may have at most \(Self.maximumBodyBytes) bytes")))
    }
    return .success(length)
  }
}

extension Substring {
  /// Without leading and trailing characters of `set`.
  fileprivate func trimmingCharacters(in set: String) -> Substring {
    let blank: (Character) -> Bool = { set.contains($0) }
    guard let start = firstIndex(where: { !blank($0) }), let end = lastIndex(where: { !blank($0) })
    else { return "" }
    return self[start...end]
  }
}
