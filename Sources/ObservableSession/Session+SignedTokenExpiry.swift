import ObservableAuthorization
import ObservableWire

/// A connection that authenticated with a signed token lives as long as the token: when it
/// expires the client gets a notice, and has the auth timeout to send a fresh `auth`, else
/// the connection closes and its subscriptions end.
extension Session {
  /// Notes the expiry of the token just accepted. One timer per connection: a fresh `auth`
  /// before it fires moves the deadline, and the timer, when it fires early, waits again.
  func watchExpiry(in remaining: Duration) {
    access.signedTokenExpiry = .now + remaining
    if !access.expiryTimerArmed { armExpiryTimer(in: remaining) }
  }

  private func armExpiryTimer(in delay: Duration) {
    access.expiryTimerArmed = true
    output.schedule(in: delay) { [self] in
      access.expiryTimerArmed = false
      guard let expiry = access.signedTokenExpiry, !closing else { return }
      let left = expiry - .now
      guard left <= .zero else { return armExpiryTimer(in: left) }
      access.signedTokenExpiry = nil
      tokenExpired()
    }
  }

  /// The notice, then the grace the client has to authenticate again.
  private func tokenExpired() {
    let authentication = access.authentications
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
