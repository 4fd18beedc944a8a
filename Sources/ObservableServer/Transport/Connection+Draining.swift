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
  func drain(within grace: Duration) {
    loop.assertInLoop()
    guard !closed, !draining else { return }
    draining = true
    endSession()
    // A WebSocket peer is told why (1001) after what was queued; line clients just see the FIN.
    queueFarewell(.goingAway)
    schedule(in: grace) { [self] in close("server shutting down") }
    flush()
  }

  /// Half-closes once everything queued is written: the client reads to the end, then closes.
  func sendEndOfStream() {
    loop.assertInLoop()
    guard !sentEndOfStream else { return }
    sentEndOfStream = true
    // Values still arriving from streams could only be written after the FIN: none are taken.
    outbox.close()
    do {
      _ = try blockingSyscall("shutdown") { Glibc.shutdown(descriptor, Int32(SHUT_WR)) }
      try loop.modify(descriptor, events: EPOLLIN.rawValue | EPOLLRDHUP.rawValue)
    } catch {
      close(finishing ?? "server shutting down")
    }
  }

  /// Reads and discards what the client sends while the connection drains or finishes (see
  /// ``finish(_:)``), so that the close finds no unread input; closes at the client's end of
  /// stream once the half-close is sent.
  func discardInput() {
    loop.assertInLoop()
    for _ in 0..<16 {
      switch try? SocketCalls.read(descriptor, into: loop.readBuffer) {
      case .done(let count) where count > 0: continue
      case .wouldBlock: return
      case .done where finishing != nil && !sentEndOfStream:
        // The client closed its side before it had the last lines; it may still read them
        // (`nc -N`), so they go out, and the close follows them.
        return keepWritingAfterPeerClosed()
      default: return close(finishing ?? "server shutting down")
      }
    }
  }

  /// Stops reading a finishing connection whose client closed its side; it closes once
  /// everything queued is written.
  private func keepWritingAfterPeerClosed() {
    peerClosed = true
    do {
      try loop.modify(descriptor, events: EPOLLOUT.rawValue)
    } catch {
      return close(finishing ?? "closed by peer")
    }
    flush()
  }
}
