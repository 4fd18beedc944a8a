import ObservableCounters
import ObservableSession
import WebSocket

/// The start of an HTTP connection: one request head, read within
/// ``ConnectionSettings/httpHeadTimeout`` and at most 8 KiB, answered by ``HTTPRouter``.
///
/// A plain response closes the connection once written. An accepted WebSocket upgrade writes
/// the `101` answer and hands the connection, with whatever followed the head, to a
/// ``WebSocketFraming``, which starts the session. No session exists before that, so nothing
/// here reaches the protocol. Used on the connection's loop thread only.
final class HTTPFraming: Framing {
  /// The largest request head accepted; past it the answer is 431.
  static let maximumHeadBytes = 8192

  /// A framing answering with `router`; `settings` and `counters` go to the WebSocket framing.
  init(router: HTTPRouter, settings: ConnectionSettings, counters: ServerCounters) {
    self.router = router
    self.settings = settings
    self.counters = counters
  }

  /// Unused: a head has its own cap.
  var maxLineBytes = 0

  func attach(to connection: Connection) -> Bool {
    self.connection = connection
    connection.schedule(in: settings.httpHeadTimeout) { [self] in
      guard !answered else { return }
      respond(.text(.requestTimeout, "request head not received in time"), body: true)
    }
    return false
  }

  func decode(_ input: UnsafeRawBufferPointer, to session: Session?) -> Int {
    guard !answered else { return input.count }
    switch parser.parse(input) {
    case .needMore:
      return input.count
    case .failed(let error):
      respond(.refusing(error), body: true)
      return input.count
    case .complete(let head, let consumed):
      switch router.route(head) {
      case .respond(let response, let body):
        respond(response, body: body)
        return input.count
      case .upgrade(let handshake):
        return upgrade(handshake) ? consumed : input.count
      }
    }
  }

  /// Writes the `101` answer and swaps the connection's framing; returns false when the
  /// connection was answered with an error instead.
  private func upgrade(_ handshake: WebSocketHandshake) -> Bool {
    guard let connection else { return false }
    let framing: WebSocketFraming
    do {
      framing = try WebSocketFraming(handshake: handshake, settings: settings, counters: counters)
    } catch {
      respond(.text(.serviceUnavailable, "cannot start compression: \(error)"), body: true)
      return false
    }
    answered = true
    connection.sendFramed(handshake.response().bytes())
    connection.upgrade(to: framing)
    return true
  }

  /// Writes `response` and closes once it is written.
  private func respond(_ response: HTTPResponse, body: Bool) {
    answered = true
    guard let connection else { return }
    connection.sendFramed(response.bytes(includingBody: body))
    connection.finish("answered HTTP \(response.status.code)")
  }

  var sendsLinesUnchanged: Bool { false }

  func encode(_ lines: UnsafeRawBufferPointer, to out: inout [UInt8]) {
    // Nothing queues lines before the session starts, which is after this framing is gone.
  }

  var allowsStreamCompression: Bool { false }

  private let router: HTTPRouter
  private let settings: ConnectionSettings
  private let counters: ServerCounters
  private var parser = HTTPRequestHeadParser(maximumHeadBytes: HTTPFraming.maximumHeadBytes)
  /// Whether the request was answered (or upgraded): nothing more is read.
  private var answered = false
  /// The connection; weak, since the connection holds its framing.
  private weak var connection: Connection?
}
