import Glibc
import ObservableFraming
import ObservablePOSIX

/// What a framing other than lines asks of its connection, through the events it returns:
/// bytes written outside the outbox (HTTP responses, control frames), the swap to WebSocket
/// at the upgrade, and the last frame before a close. Loop thread only.
extension Connection {
  /// Writes `bytes` after what is already being written and before anything still queued:
  /// they must be whole units of the current framing (a response, a frame).
  func sendFramed(_ bytes: [UInt8]) {
    loop.assertInLoop()
    guard !lifecycle.isClosed, !bytes.isEmpty else { return }
    output.compact()
    output.append(bytes)
    context.counters.update { $0.bytesOutUncompressed += bytes.count }
    flush()
  }

  /// Writes a control frame (a WebSocket pong or ping) as ``sendFramed(_:)`` does, counting
  /// it and everything unwritten toward the queued-bytes cap: a peer that pings and never
  /// reads is closed as a slow consumer, before it authenticates too (at a lower cap).
  func sendControlFrame(_ bytes: [UInt8]) {
    guard !lifecycle.isClosed else { return }
    output.compact()
    guard outbox.holdUnwritten(output.unsentCount + bytes.count) else {
      context.counters.update { $0.slowConsumersTotal += 1 }
      return closeAsSlowConsumer()
    }
    sendFramed(bytes)
  }

  /// Replaces the framing for the rest of the connection and starts the session, whose
  /// greeting is then the first thing the new framing sends.
  func upgrade(to next: any Framing) {
    loop.assertInLoop()
    guard !lifecycle.isClosed else { return }
    framing = next
    _ = attachFraming()
    startSession()
  }

  /// Sends the framing's farewell after everything queued so far, then closes once it is
  /// written; nothing queued later is sent.
  func finish(_ reason: String, saying farewell: Farewell) {
    loop.assertInLoop()
    guard !lifecycle.isClosed, lifecycle.finishReason == nil else { return }
    queueFarewell(farewell)
    finish(reason)
  }

  /// Moves the queued lines, framed, behind what is being written and appends the framing's
  /// farewell, if it has one.
  func queueFarewell(_ farewell: Farewell) {
    loop.assertInLoop()
    guard !lifecycle.isClosed, output.compression == nil, !framing.sendsLinesUnchanged else {
      return
    }
    moveQueuedLinesToWriting()
    // After the lines: the framing sends nothing once it said farewell.
    output.append(framing.farewell(farewell))
  }

  /// Closes at shutdown, telling a WebSocket peer why (1001) when its socket takes the frame
  /// at once: shutdown does not wait for slow peers.
  package func closeForShutdown() {
    loop.assertInLoop()
    guard !lifecycle.isClosed else { return }
    let farewell = framing.farewell(.goingAway)
    if !farewell.isEmpty, output.isAllSent {
      socket.sendNow(output.sealed(farewell))
    }
    sayCloseNotify()
    close("server shutting down")
  }
}
