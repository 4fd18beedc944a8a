import CLinux
import Glibc
import ObservablePOSIX

/// How a connection ends when the server shuts down. Loop thread only.
extension Connection {
  /// Ends the connection without losing what was sent: reads no more requests, ends the
  /// session (its disconnects run), writes everything queued, then half-closes (FIN) and reads
  /// and discards the client's input until it closes too, so that the close does not turn into
  /// a reset that would destroy replies the client has not read yet. Closes after `grace` in
  /// any case.
  package func drain(within grace: Duration) {
    loop.assertInLoop()
    guard lifecycle.drain() else { return }
    endSession()
    // A WebSocket peer is told why (1001) after what was queued; line clients just see the FIN.
    queueFarewell(.goingAway)
    schedule(in: grace) { [self] in close("server shutting down") }
    flush()
  }

  /// Half-closes once everything queued is written: the client reads to the end, then closes.
  func sendEndOfStream() {
    loop.assertInLoop()
    guard lifecycle.sendEndOfStream() else { return }
    // Values still arriving from streams could only be written after the FIN: none are taken.
    outbox.close()
    sayCloseNotify()
    do {
      try socket.halfClose(on: loop)
    } catch {
      close(lifecycle.finishReason ?? "server shutting down")
    }
  }

  /// Reads and discards what the client sends while the connection drains or finishes (see
  /// ``finish(_:)``), so that the close finds no unread input; closes at the client's end of
  /// stream once the half-close is sent.
  func discardInput() {
    loop.assertInLoop()
    switch socket.discardInput(into: loop.readBuffer) {
    case .drained: return
    case .endOfStream:
      // A client that closed its side before it had a finish's last lines may still read
      // them (`nc -N`), so they go out, and the close follows them.
      if lifecycle.peerSentEndOfStream() { return keepWritingAfterPeerClosed() }
      close(lifecycle.finishReason ?? "server shutting down")
    case .failed: close(lifecycle.finishReason ?? "server shutting down")
    }
  }

  /// Stops reading a finishing connection whose client closed its side; it closes once
  /// everything queued is written.
  private func keepWritingAfterPeerClosed() {
    do {
      try socket.watchWritableOnly(on: loop)
    } catch {
      return close(lifecycle.finishReason ?? "closed by peer")
    }
    flush()
  }
}
