import ObservableFraming
import ObservableWire
import WebSocket

/// `GET /sse?stream=NAME&stream=PATTERN…`: the connection becomes a subscriber whose output is
/// Server-Sent Events (``ServerSentEventsFraming``).
extension HTTPRouter {
  /// The route for a request to `/sse`.
  func events(_ head: HTTPRequestHead) -> Route {
    guard head.method == "GET" else {
      return .respond(
        .jsonError(.methodNotAllowed, "method_not_allowed", "use GET", headers: [("Allow", "GET")]),
        includingBody: true)
    }
    // As for `/ws`: during the shutdown grace no new session starts.
    guard isServing() else {
      return .respond(
        .jsonError(
          .serviceUnavailable, ErrorCode.unavailable.rawValue, "the server is shutting down"),
        includingBody: true)
    }
    let query = HTTPQuery(head.query)
    let streams = query.values("stream")
    guard !streams.isEmpty else {
      return .respond(
        .jsonError(
          .badRequest, ErrorCode.badRequest.rawValue, "name at least one stream: /sse?stream=NAME"),
        includingBody: true)
    }
    for stream in streams {
      do {
        _ = try StreamName.validatePattern(stream)
      } catch {
        return .respond(
          .jsonError(.badRequest, error.code.rawValue, error.message), includingBody: true)
      }
    }
    let credential = presentedCredential(head, query)
    if let refusal = refusal(for: credential) { return .respond(refusal, includingBody: true) }
    let request = ServerSentEventsRequest(
      streams: streams, credential: access?.requiresAuthentication == true ? credential : nil,
      lastEventID: head.headers["Last-Event-ID"] ?? query.first("lastEventId"),
      positions: keepsHistory)
    return .stream(
      head: Self.eventStreamHead + ServerSentEvents.retry(eventRetry),
      framing: ServerSentEventsFraming(
        openingRequests: request.lines, heartbeat: eventHeartbeat, ids: keepsHistory))
  }

  /// The answer's head: no length, so the body (the events) lasts until the connection
  /// closes; not to be cached or buffered by a proxy (`X-Accel-Buffering` is nginx's).
  private static let eventStreamHead = Array(
    ("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-store\r\n"
      + "X-Accel-Buffering: no\r\nConnection: close\r\n\r\n").utf8)
}
