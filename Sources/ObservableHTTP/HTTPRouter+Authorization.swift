import Logging
import ObservableAuthorization
import ObservableLogging
import ObservableSession
import ObservableWire
import WebSocket

/// The one credentials check of the HTTP side (`/sse` now, the HTTP API next): every route that
/// needs a client's identity asks here.
///
/// A browser cannot set headers on an `EventSource`, so the credential may come in the query
/// (`token=…` with `user=…`, or `jwt=…`), as on `/ws`; a backend sends
/// `Authorization: Bearer …`. It is never logged: the router logs no request target, and a
/// refusal names neither.
extension HTTPRouter {
  /// The credential `head` presents: `jwt=` in the query, else `Authorization: Bearer …` (a
  /// signed token when it has a JWT's three parts and no `user=` names a user), else
  /// `Authorization: Basic …` (a file user's name and token, as `curl -u USER:TOKEN` sends
  /// them), else `token=` with `user=` when given.
  func presentedCredential(_ head: HTTPRequestHead, _ query: HTTPQuery) -> PresentedCredential? {
    if let jwt = query.first("jwt") { return .signed(jwt) }
    let user = query.first("user")
    if let authorization = head.headers["Authorization"] {
      let parts = authorization.split(separator: " ", maxSplits: 1)
      if parts.count == 2, parts[0].lowercased() == "bearer" {
        let bearer = String(parts[1]).trimmingSpaces()
        let looksSigned = bearer.split(separator: ".", omittingEmptySubsequences: false).count == 3
        return looksSigned && user == nil ? .signed(bearer) : .token(user: user, bearer)
      }
      if parts.count == 2, parts[0].lowercased() == "basic" {
        return Self.basicCredential(String(parts[1]).trimmingSpaces())
      }
    }
    return query.first("token").map { .token(user: user, $0) }
  }

  /// Nil when `credential` may use the server (or none is needed); otherwise the `401` to
  /// answer, counted as an authentication failure like a wrong `auth`. The check is the
  /// sessions' own (``AccessRules``), so a file user or a signed token works here as in `auth`.
  func refusal(for credential: PresentedCredential?) -> HTTPResponse? {
    guard let access, access.requiresAuthentication else { return nil }
    let accepted: Bool
    switch credential {
    case nil: accepted = false
    case .token(let user, let token):
      accepted = access.authenticate(user: user, token: token) != nil
    case .signed(let jwt): accepted = (try? access.authenticate(signedToken: jwt)) != nil
    }
    if accepted { return nil }
    counters.update { $0.authFailuresTotal += 1 }
    let reason = credential == nil ? "this server needs a token" : "wrong credentials"
    // As a refused `auth` is: a few lines a second and a count of the rest, never the
    // credential, so a script retrying a bad token cannot flood the log.
    warnings?.warn(
      .authenticationFailed, "authentication failed",
      metadata: ["reason": "\(reason)", "via": "http"])
    return .jsonError(
      .unauthorized, ErrorCode.unauthorized.rawValue, reason,
      headers: [("WWW-Authenticate", #"Bearer realm="observable""#)])
  }
}

extension HTTPRouter {
  /// The file user and token of a Basic credential, `USER:TOKEN` in base64; a malformed one is
  /// a token no user has, refused as a wrong one.
  fileprivate static func basicCredential(_ encoded: String) -> PresentedCredential {
    let decoded = Base64.decode(encoded).map { String(decoding: $0, as: UTF8.self) } ?? ""
    let parts = decoded.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
    guard parts.count == 2, !parts[0].isEmpty else { return .token(user: nil, "") }
    return .token(user: String(parts[0]), String(parts[1]))
  }
}

/// A credential an HTTP request presents, passed on to its session as an `auth` request.
enum PresentedCredential: Equatable {
  /// A token, the shared one or a file user's (`user` names them).
  case token(user: String?, String)
  /// A signed token (JWT).
  case signed(String)
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
