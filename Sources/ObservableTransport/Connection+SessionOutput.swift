import CLinux
import Glibc
import ObservablePOSIX
import ObservableSession

/// What the session asks of the connection, and how the connection ends after socket errors.
/// Loop thread only.
extension Connection: SessionOutput {
  /// Closes after a failed read or write, telling a vanished peer from other failures.
  func closeAfter(_ error: SystemError, _ what: String) {
    loop.assertInLoop()
    switch error.code {
    case ECONNRESET, EPIPE: close("reset by peer")
    case ETIMEDOUT, EHOSTUNREACH, ENETUNREACH:
      // Keepalive probes or unacknowledged data went unanswered for the dead-peer timeout, or
      // the peer's address stopped answering at all (its neighbour entry failed) meanwhile.
      context.counters.update { $0.deadPeersTotal += 1 }
      sayFarewellNow(.deadPeer("peer vanished"))
      close("peer vanished: nothing acknowledged within the dead-peer timeout")
    default: close("\(what): \(error)")
    }
  }

  /// The longest line a client may send before it authenticates.
  static let unauthenticatedLineBytes = 4096
  /// The most bytes queued for a client before it authenticates.
  static let unauthenticatedQueuedBytes = 64 * 1024

  package func send(_ lines: [UInt8]) {
    loop.assertInLoop()
    enqueue(lines)
  }

  package func authenticated() {
    loop.assertInLoop()
    framing.maxLineBytes = settings.maxLineBytes
    outbox.setLimit(settings.maxQueuedBytes)
  }

  package func finish(_ reason: String) {
    loop.assertInLoop()
    guard lifecycle.finish(reason) else { return }
    // The session ends only for a policy (a wrong token, no token in time); a framing that
    // tells its peer why does so after the error line.
    queueFarewell(.policyViolation)
    // No more requests are handled, but what the client still sends is read and discarded
    // until the half-close: a close with unread input would be a reset, which destroys the
    // last lines before the client reads them. A client that neither reads them nor closes
    // is closed anyway.
    socket.watchWhileFinishing(readingInput: !lifecycle.peerClosed, on: loop)
    watchingWritable = true
    schedule(in: settings.halfCloseGrace) { [self] in close(reason) }
    flush()
  }

  package func schedule(in delay: Duration, _ task: @escaping () -> Void) {
    loop.assertInLoop()
    guard !lifecycle.isClosed else { return }
    var timer: LoopTimer?
    timer = loop.schedule(in: delay) { [self] in
      if let timer { timers.remove(timer) }
      task()
    }
    if let timer { timers.insert(timer) }
  }

  package var sessionLoop: any SessionLoop { loop }
}
