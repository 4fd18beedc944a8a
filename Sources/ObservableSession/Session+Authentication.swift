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

  func authenticate(_ request: Request) throws(ProtocolError) {
    guard let token = request.token else {
      throw ProtocolError(.badRequest, "auth needs \"token\"")
    }
    if let expected = context.token {
      guard TokenComparison.matches(Array(token.utf8), Array(expected.utf8)) else {
        context.counters.update { $0.authFailuresTotal += 1 }
        context.warnings.warn(
          .authenticationFailed, "authentication failed", metadata: ["peer": "\(output.peer)"])
        closing = true
        throw ProtocolError(.unauthorized, "wrong token")
      }
    }
    if !authenticated {
      authenticated = true
      output.authenticated()
    }
    ok(request)
  }
}
