import ObservableFraming
import ObservablePOSIX

/// How a connection whose framing says goodbye (a WebSocket Close frame) ends when its peer
/// does not read, or stops answering: the frame is sent even then, after the frame being
/// written, and what was queued behind that frame is dropped to make room. Loop thread only.
extension Connection {
  /// Drops what is queued after the frame being written, queues `notice` (the line a TCP
  /// client would get) and the framing's farewell, and ends as ``drain(within:)`` does: the
  /// session ends, input is read and discarded, and once the frames are written the socket
  /// half-closes and closes at the peer's end of stream (its close frame answered, so the
  /// close is clean), or after the half-close grace. Returns `false`, doing nothing, when the
  /// framing has no frames to cut or the connection is already ending.
  func finishAsSlowConsumer(notice line: [UInt8]) -> Bool {
    guard lifecycle.state == .open, output.keepOnlyCurrentUnit(framing: framing) else {
      return false
    }
    outbox.close()
    output.append(lines: line, framing: framing)
    output.append(framing.farewell(.slowConsumer))
    // Closing at once would reset the socket over the unread input, and the reset would
    // destroy the close frame before the peer read it.
    _ = lifecycle.drainAfterFarewell()
    endSession()
    schedule(in: settings.halfCloseGrace) { [self] in close("slow consumer") }
    flush()
    return true
  }

  /// Sends the framing's farewell at once, after the rest of the frame being written, before
  /// a close that does not wait for it. Best effort: a vanished peer's socket may refuse it.
  func sayFarewellNow(_ farewell: Farewell) {
    guard !lifecycle.isClosed, let rest = output.restOfCurrentUnit(framing: framing) else {
      return
    }
    let frame = framing.farewell(farewell)
    guard !frame.isEmpty else { return }
    socket.sendNow(rest + output.sealed(frame))
  }
}
