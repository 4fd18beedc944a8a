import ObservableFraming
import ObservablePOSIX
import ObservableWire

/// The connection acting on what its framing decoded: lines go to the session, everything
/// else (responses, control frames, the upgrade, a farewell) is the connection's to do, so
/// the framing stays a codec below it. Loop thread only.
extension Connection {
  /// Acts on one event; returns whether the framing goes on with the rest of its input.
  func act(on event: FramingEvent) -> Bool {
    switch event {
    case .line(let line):
      guard let session else { return true }
      return session.handle(line)
    case .lineTooLong:
      session?.reject(
        op: nil, id: nil,
        ProtocolError(
          .lineTooLong,
          "line longer than \(framing.maxLineBytes) bytes; the rest of it is skipped"))
      return true
    case .controlFrame(let bytes):
      sendControlFrame(bytes)
      return true
    case .respond(let bytes, let reason):
      sendFramed(bytes)
      finish(reason)
      return true
    case .upgrade(let answer, let next):
      sendFramed(answer)
      upgrade(to: next)
      return true
    case .violation(let reason, let detail, let farewell):
      context.logger.debug(
        "websocket protocol error", metadata: ["peer": "\(peer)", "error": "\(detail)"])
      finish(reason, saying: farewell)
      return false
    case .finish(let reason, let farewell):
      finish(reason, saying: farewell)
      return false
    case .deadPeer(let reason, let farewell):
      sayFarewellNow(farewell)
      close(reason)
      return false
    }
  }

  /// Attaches the current framing and starts its timer, if it has one; returns whether the
  /// session starts now.
  func attachFraming() -> Bool {
    let startsSession = framing.attach()
    if let interval = framing.timerInterval { scheduleTimer(of: framing, in: interval) }
    return startsSession
  }

  /// Runs `framing`'s timer after `interval`, and again while it asks: the framing it was
  /// started for, even once another replaced it (an HTTP head's deadline after the upgrade
  /// then finds the head answered and does nothing).
  private func scheduleTimer(of framing: any Framing, in interval: Duration) {
    schedule(in: interval) { [self] in
      let (event, again) = framing.timerFired()
      if let event { _ = act(on: event) }
      if again { scheduleTimer(of: framing, in: interval) }
    }
  }
}
