/// Where a connection is in its life, from the accept to the close.
///
/// | From | Event | To |
/// |---|---|---|
/// | open | the client's end of stream | peerClosed |
/// | open | `finish` | finishing |
/// | open | shutdown, slow WebSocket reader | draining |
/// | draining | `finish` | finishing |
/// | finishing, before its half-close | the client's end of stream | peerClosed, finishing |
/// | peerClosed | `finish` | peerClosed, finishing |
/// | draining, finishing | everything queued written | the same, half-close sent |
/// | peerClosed | everything queued written | closed |
/// | draining, finishing, half-close sent | the client's end of stream | closed |
/// | any but closed | an error, a timer, a dead or slow peer, shutdown's end | closed |
///
/// ``ConnectionLifecycle`` makes these moves and no others; the close happens once.
package enum ConnectionState: Equatable, Sendable {
  /// Reading and handling requests, writing replies and values.
  case open
  /// The client closed its side: nothing more is read, and what is queued still goes out
  /// before the close, which has the reason of the ``finishing(reason:endOfStreamSent:)``
  /// the connection was in or entered since, if any.
  case peerClosed(finishing: String?)
  /// Ending without losing what was sent (the server shuts down, or a WebSocket peer too slow
  /// to read gets its farewell frame): requests are no longer read, what the client sends is
  /// discarded, and once everything queued is written the socket half-closes
  /// (`endOfStreamSent`) and closes at the client's end of stream.
  case draining(endOfStreamSent: Bool)
  /// Closing for `reason` once everything queued is written (a wrong token, an HTTP response,
  /// a WebSocket close handshake), half-closing first as ``draining(endOfStreamSent:)`` does.
  case finishing(reason: String, endOfStreamSent: Bool)
  /// The socket is closed and the session ended. Nothing leaves this state.
  case closed(reason: String)
}

/// A connection's ``ConnectionState`` and the only code that changes it: each event the
/// connection sees is one method here, which moves the state or refuses, and the connection
/// acts on the answer. Loop thread only, as its connection.
package struct ConnectionLifecycle {
  /// Where the connection is now.
  private(set) var state = ConnectionState.open

  /// Whether the socket is closed.
  var isClosed: Bool {
    if case .closed = state { return true }
    return false
  }

  /// Whether the client closed its side, so the connection only writes what is queued.
  var peerClosed: Bool {
    if case .peerClosed = state { return true }
    return false
  }

  /// The reason given to ``finish(_:)``, while the connection finishes.
  var finishReason: String? {
    switch state {
    case .finishing(let reason, _): reason
    case .peerClosed(let reason): reason
    case .open, .draining, .closed: nil
    }
  }

  /// Whether the connection watches for room to write only while it has bytes waiting: an
  /// ending one that still reads (finishing) or only writes (client closed) keeps watching.
  var watchesWritabilityOnDemand: Bool {
    switch state {
    case .open, .draining: true
    case .peerClosed, .finishing, .closed: false
    }
  }

  /// The client's end of stream was read. Returns whether the connection goes on writing what
  /// is queued (``ConnectionState/peerClosed(finishing:)``): from ``ConnectionState/open``,
  /// and from a finish whose half-close is not sent yet, since the client may still read the
  /// last lines (`nc -N`). Otherwise (draining, or after the half-close) the caller closes.
  mutating func peerSentEndOfStream() -> Bool {
    switch state {
    case .open:
      state = .peerClosed(finishing: nil)
    case .finishing(let reason, endOfStreamSent: false):
      state = .peerClosed(finishing: reason)
    case .peerClosed, .draining, .finishing, .closed:
      return false
    }
    return true
  }

  /// The server shuts down. Returns whether the drain's work runs: an open connection starts
  /// draining; one already ending because its client closed or it finishes keeps its state
  /// (and its close reason), the drain adding only its deadline. Refused once draining or
  /// closed, so a second drain does nothing.
  mutating func drain() -> Bool {
    switch state {
    case .open:
      state = .draining(endOfStreamSent: false)
    case .peerClosed, .finishing:
      break
    case .draining, .closed:
      return false
    }
    return true
  }

  /// The connection is too slow a reader and its framing says goodbye: it drains after the
  /// farewell frame. Only an open connection does; returns whether it did.
  mutating func drainAfterFarewell() -> Bool {
    guard case .open = state else { return false }
    state = .draining(endOfStreamSent: false)
    return true
  }

  /// The session or the framing asks to close once everything queued is written (a policy
  /// violation, an HTTP response, a WebSocket close). Returns whether the connection now
  /// finishes for `reason`; refused once it finishes already or is closed, so the first
  /// reason is the one the close gives.
  mutating func finish(_ reason: String) -> Bool {
    switch state {
    case .open:
      state = .finishing(reason: reason, endOfStreamSent: false)
    case .draining(let sent):
      state = .finishing(reason: reason, endOfStreamSent: sent)
    case .peerClosed(finishing: nil):
      state = .peerClosed(finishing: reason)
    case .peerClosed, .finishing, .closed:
      return false
    }
    return true
  }

  /// Everything queued is written by a draining or finishing connection, which half-closes
  /// now. Returns whether the half-close is to be sent: once, and only when the connection
  /// still reads (draining or finishing).
  mutating func sendEndOfStream() -> Bool {
    switch state {
    case .draining(endOfStreamSent: false):
      state = .draining(endOfStreamSent: true)
    case .finishing(let reason, endOfStreamSent: false):
      state = .finishing(reason: reason, endOfStreamSent: true)
    case .open, .peerClosed, .draining, .finishing, .closed:
      return false
    }
    return true
  }

  /// The socket closes, for any reason: an error, the client's end of stream after the
  /// half-close, a slow consumer, a dead peer, a timer, the shutdown. Returns `true` the first
  /// time only, so what a close does (ending the session, releasing the slot) runs once.
  mutating func close(_ reason: String) -> Bool {
    guard !isClosed else { return false }
    state = .closed(reason: reason)
    return true
  }
}
