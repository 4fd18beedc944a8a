import WebSocket

/// What the HTTP side of a server answers to one request head, as ``HTTPFraming`` asks it:
/// the router of `ObservableHTTP` implements it, so the framing names no page and no metric.
package protocol HTTPRoutes: Sendable {
  /// The route for `head`.
  func route(_ head: HTTPRequestHead) -> HTTPRoute
}

/// What to do with a request.
package enum HTTPRoute {
  /// Send the response (its body unless `includingBody` is false, for `HEAD`), then close.
  case respond(HTTPResponse, includingBody: Bool)
  /// Accept the WebSocket upgrade.
  case upgrade(WebSocketHandshake)
  /// Send `head`, a response head whose body is the rest of the connection (none for an HTTP
  /// API request, which answers later), and frame the connection with `framing` from then on,
  /// what followed the head included (`GET /sse`, the HTTP API).
  case stream(head: [UInt8], framing: any Framing)
}
