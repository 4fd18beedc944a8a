import ObservableCounters
import WebSocket

/// The start of an HTTP connection: one request head, read within
/// ``ConnectionSettings/httpHeadTimeout`` and at most 8 KiB, answered by ``HTTPRouter``.
///
/// A plain response closes the connection once written. An accepted WebSocket upgrade writes
/// the `101` answer and hands the connection, with whatever followed the head, to a
/// ``WebSocketFraming``, which starts the session. Each of these is a ``FramingEvent`` the
/// connection acts on; no session exists before that, so nothing here reaches the protocol.
/// Used on the connection's loop thread only.
package final class HTTPFraming: Framing {
  /// The largest request head accepted; past it the answer is 431.
  static let maximumHeadBytes = 8192

  /// A framing answering with `router`; `settings` and `counters` go to the WebSocket framing.
  package init(router: any HTTPRoutes, settings: ConnectionSettings, counters: ServerCounters) {
    self.router = router
    self.settings = settings
    self.counters = counters
  }

  /// Unused: a head has its own cap.
  package var maxLineBytes = 0

  package func attach() -> Bool { false }

  /// The head must arrive within ``ConnectionSettings/httpHeadTimeout``.
  package var timerInterval: Duration? { settings.httpHeadTimeout }

  package func timerFired() -> (event: FramingEvent?, again: Bool) {
    guard !answered else { return (nil, false) }
    return (respond(.text(.requestTimeout, "request head not received in time"), body: true), false)
  }

  package func decode(_ input: UnsafeRawBufferPointer, _ handle: (FramingEvent) -> Bool) -> Int {
    guard !answered else { return input.count }
    switch parser.parse(input) {
    case .needMore:
      return input.count
    case .failed(let error):
      _ = handle(respond(.refusing(error), body: true))
      return input.count
    case .complete(let head, let consumed):
      switch router.route(head) {
      case .respond(let response, let body):
        _ = handle(respond(response, body: body))
        return input.count
      case .upgrade(let handshake):
        let (event, upgraded) = upgrade(handshake)
        _ = handle(event)
        return upgraded ? consumed : input.count
      case .stream(let head, let framing):
        answered = true
        _ = handle(.upgrade(head, to: framing))
        // What followed the head (an HTTP API request's body) is the new framing's.
        return consumed
      }
    }
  }

  /// The `101` answer and the framing for the rest of the connection, or, when that framing
  /// cannot start, an error response instead; says which.
  private func upgrade(_ handshake: WebSocketHandshake) -> (FramingEvent, upgraded: Bool) {
    let framing: WebSocketFraming
    do {
      framing = try WebSocketFraming(handshake: handshake, settings: settings, counters: counters)
    } catch {
      return (
        respond(.text(.serviceUnavailable, "cannot start compression: \(error)"), body: true),
        false
      )
    }
    answered = true
    return (.upgrade(handshake.response().bytes(), to: framing), true)
  }

  /// `response`, to write before the connection closes.
  private func respond(_ response: HTTPResponse, body: Bool) -> FramingEvent {
    answered = true
    return .respond(
      response.bytes(includingBody: body), reason: "answered HTTP \(response.status.code)")
  }

  package var sendsLinesUnchanged: Bool { false }

  package func encode(_ lines: UnsafeRawBufferPointer, to out: inout [UInt8]) {
    // Nothing queues lines before the session starts, which is after this framing is gone.
  }

  package var allowsStreamCompression: Bool { false }

  private let router: any HTTPRoutes
  private let settings: ConnectionSettings
  private let counters: ServerCounters
  private var parser = HTTPRequestHeadParser(maximumHeadBytes: HTTPFraming.maximumHeadBytes)
  /// Whether the request was answered (or upgraded): nothing more is read.
  private var answered = false
}
