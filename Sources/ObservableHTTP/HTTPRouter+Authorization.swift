import ObservableSession
import ObservableWire
import WebSocket

/// The one credentials check of the HTTP side (`/sse` now, the HTTP API next): every route that
/// needs a client's identity asks here, so that users and permissions replace this check in
/// one place.
///
/// A browser cannot set headers on an `EventSource`, so the token may come in the query as
/// `token=…`, as it may on `/ws`; a backend sends `Authorization: Bearer …`. The token is never
/// logged: the router logs no request target, and a refusal names neither.
extension HTTPRouter {
  /// The token `head` presents: `Authorization: Bearer …` first, else the query's `token`.
  func presentedToken(_ head: HTTPRequestHead, _ query: HTTPQuery) -> String? {
    if let authorization = head.headers["Authorization"] {
      let parts = authorization.split(separator: " ", maxSplits: 1)
      if parts.count == 2, parts[0].lowercased() == "bearer" {
        return String(parts[1]).trimmingSpaces()
      }
    }
    return query.first("token")
  }

  /// Nil when `token` may use the server (or none is needed); otherwise the `401` to answer,
  /// counted as an authentication failure like a wrong `auth`.
  func refusal(for token: String?) -> HTTPResponse? {
    guard let expected = self.token else { return nil }
    if let token, TokenComparison.matches(Array(token.utf8), Array(expected.utf8)) {
      return nil
    }
    counters.update { $0.authFailuresTotal += 1 }
    let reason = token == nil ? "this server needs a token" : "wrong token"
    return .jsonError(
      .unauthorized, ErrorCode.unauthorized.rawValue, reason,
      headers: [("WWW-Authenticate", #"Bearer realm="observable""#)])
  }
}

extension String {
  /// Without leading and trailing spaces and tabs.
  fileprivate func trimmingSpaces() -> String {
    let blank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
    guard let start = firstIndex(where: { !blank($0) }),
      let end = lastIndex(where: { !blank($0) })
    else { return "" }
    return String(self[start...end])
  }
}
