import Logging
import ObservableAuthorization
import ObservableWire

/// Authentication: with a token set, `auth` must come first, within the auth timeout, and a
/// wrong token ends the connection, as NATS does, so tokens cannot be tried in a loop.
extension Session {
  /// Starts the auth timeout, when the server has a token.
  package func start() {
    guard !authenticated else { return }
    let timeout = context.authTimeout
    output.schedule(in: timeout) { [self] in
      guard !authenticated, !closing else { return }
      closing = true
      context.counters.update { $0.authTimeoutsTotal += 1 }
      output.send(
        ReplyEncoder.notice(
          ProtocolError(.unauthorized, "no auth within \(timeout.components.seconds) s")))
      output.finish("authentication timed out")
    }
  }

  /// `auth` with `--token`'s token, a file user's `user` and `token`, or a signed `jwt`.
  func authenticate(_ request: Request) throws(ProtocolError) {
    let policy = context.access
    let identity: Identity
    if let jwt = request.jwt {
      do {
        identity = try policy.authenticate(signedToken: jwt)
      } catch {
        throw refuse(request, error.reason)
      }
    } else {
      guard let token = request.token else {
        throw ProtocolError(.badRequest, "auth needs \"token\" (with \"user\") or \"jwt\"")
      }
      if !policy.requiresAuthentication {
        identity = .everything
      } else if let found = policy.authenticate(user: request.user, token: token) {
        identity = found
      } else {
        throw refuse(request, request.user == nil ? "wrong token" : "wrong user or token")
      }
    }
    access.authenticated(as: identity, policy: policy)
    if case .signed(let signed) = identity { watchExpiry(in: signed.expiresIn) }
    if !authenticated {
      authenticated = true
      output.authenticated()
    }
    ok(request)
  }

  /// Counts and logs a refused `auth` (at a bounded rate, never with the credential) and
  /// closes the connection after the reply.
  private func refuse(_ request: Request, _ reason: String) -> ProtocolError {
    context.counters.update { $0.authFailuresTotal += 1 }
    var metadata: Logger.Metadata = ["peer": "\(output.peer)", "reason": "\(reason)"]
    if let user = request.user { metadata["user"] = "\(user)" }
    context.warnings.warn(.authenticationFailed, "authentication failed", metadata: metadata)
    closing = true
    return ProtocolError(.unauthorized, reason)
  }
}
