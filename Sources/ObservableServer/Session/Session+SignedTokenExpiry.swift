import ObservableAuthorization
import ObservableWire

/// A connection that authenticated with a signed token lives as long as the token: when it
/// expires the client gets a notice, and has the auth timeout to send a fresh `auth`, else
/// the connection closes and its subscriptions end.
extension Session {
  /// Arms the expiry of the token just accepted; a later `auth` disarms it.
  func watchExpiry(in remaining: Duration) {
    let authentication = access.authentications
    output.schedule(in: remaining) { [self] in
      guard access.authentications == authentication, !closing else { return }
      let grace = context.authTimeout
      output.send(
        ReplyEncoder.notice(
          ProtocolError(
            .unauthorized,
            "the signed token expired; send a fresh auth within \(grace.components.seconds) s")))
      output.schedule(in: grace) { [self] in
        guard access.authentications == authentication, !closing else { return }
        closing = true
        context.counters.update { $0.authTimeoutsTotal += 1 }
        output.send(ReplyEncoder.notice(ProtocolError(.unauthorized, "the signed token expired")))
        output.finish("signed token expired")
      }
    }
  }
}
