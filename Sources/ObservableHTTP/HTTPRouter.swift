import ObservableAuthorization
import ObservableCluster
import ObservableCounters
import ObservableFraming
import ObservableLogging
import ObservableVersion
import WebSocket

/// What the HTTP side of the server answers to one request head: the live page, metrics,
/// health, the WebSocket upgrade, or an error.
///
/// Every plain response closes the connection once written: browsers and scrapers open a new
/// one for the next request, and one request per connection keeps the connection's states few
/// (head, then response or WebSocket). The HTTP API's requests are the exception: their
/// connection stays open for more (``HTTPExchangeFraming``). Immutable, shared by every HTTP
/// connection of a server.
package struct HTTPRouter: HTTPRoutes, Sendable {
  /// What to do with a request.
  package typealias Route = HTTPRoute

  /// Origins besides the server's own whose pages may open `/ws` (`--allow-origin`).
  let allowOrigins: [String]
  /// The server's counters, for `/metrics` and `/healthz`.
  let counters: ServerCounters
  /// Whether the server is serving: true until shutdown begins. `/healthz` answers 503 after.
  let isServing: @Sendable () -> Bool
  /// The cluster link, whose figures `/metrics` adds with `--cluster`.
  var cluster: ClusterLink?
  /// The listener's scheme, `http` or `https`: the origin of the server's own pages.
  var scheme = "http"
  /// The rules that say who a credential proves, for `/sse`: the sessions' own; nil when no
  /// credential is needed.
  var access: (any AccessRules)?
  /// Where a refused credential is logged, at the same bounded rate as a refused `auth`.
  var warnings: RepeatedWarnings?
  /// How often an idle `/sse` stream gets a comment.
  var eventHeartbeat: Duration = .seconds(15)
  /// How long a browser waits before reconnecting a dropped `/sse` stream (the `retry:` field).
  var eventRetry: Duration = .seconds(3)
  /// Whether the server keeps history (`--history`): `/sse` events then carry positions as
  /// their `id:`, and a reconnecting `EventSource` resumes from its `Last-Event-ID`.
  var keepsHistory = false

  /// The route for `head`.
  package func route(_ head: HTTPRequestHead) -> Route {
    counters.update { $0.httpRequestsTotal += 1 }
    if head.path == "/ws" {
      // During the shutdown grace the HTTP port still answers (probes see `/healthz` say
      // 503), but no new session starts.
      guard isServing() else {
        return .respond(
          .text(.serviceUnavailable, "the server is shutting down"),
          includingBody: head.method != "HEAD")
      }
      return upgrade(head)
    }
    if head.path == "/sse" { return events(head) }
    if let api = apiRoute(head) { return api }
    let body = head.method != "HEAD"
    guard let resource = resources[head.path] else {
      return .respond(
        .jsonError(.notFound, "not_found", "no such resource: \(head.path)"), includingBody: body)
    }
    guard head.method == "GET" || head.method == "HEAD" else {
      return .respond(
        .jsonError(
          .methodNotAllowed, "method_not_allowed", "use GET", headers: [("Allow", "GET, HEAD")]),
        includingBody: true)
    }
    return .respond(resource(self, head), includingBody: body)
  }

  private func upgrade(_ head: HTTPRequestHead) -> Route {
    let handshake: WebSocketHandshake
    do {
      handshake = try WebSocketHandshake(head, deflate: .lean, scheme: scheme)
    } catch {
      return .respond(error.response, includingBody: head.method != "HEAD")
    }
    guard handshake.isOriginAllowed(by: allowOrigins) else {
      let origin = handshake.origin ?? ""
      // The operator reading this must learn why their own page was refused.
      let reason =
        handshake.isSameOrigin
        ? "origin \(origin) names the server by a DNS name, which a rebinding page can claim too;"
          + " list it with --allow-origin"
        : "origin \(origin) is not allowed; see --allow-origin"
      return .respond(.text(.forbidden, reason), includingBody: true)
    }
    return .upgrade(handshake)
  }

  private var resources: [String: @Sendable (HTTPRouter, HTTPRequestHead) -> HTTPResponse] {
    [
      "/": { _, _ in Self.page },
      "/metrics": { $0.metrics(format: MetricsFormat(accept: $1.headers["Accept"])) },
      "/healthz": { router, _ in router.health() },
      "/openapi.json": { _, _ in OpenAPIDocument.response },
    ]
  }

  private static let page = HTTPResponse(
    status: .ok,
    headers: [
      ("Content-Type", LivePage.contentType),
      ("Content-Security-Policy", LivePage.securityPolicy), ("Cache-Control", "no-cache"),
    ],
    body: LivePage.bytes, closesConnection: true)

  /// The metrics in `format`, the cluster's included: one exposition, since OpenMetrics
  /// allows only one `# EOF`.
  private func metrics(format: MetricsFormat) -> HTTPResponse {
    HTTPResponse(
      status: .ok, headers: [("Content-Type", format.contentType), ("Vary", "Accept")],
      body: Array(
        ServerMetrics.exposition(
          counters, format: format, extra: cluster.map(ClusterMetrics.families) ?? []
        ).utf8),
      closesConnection: true)
  }

  /// 200 while serving, 503 once shutdown began; the body says which, with a few figures.
  private func health() -> HTTPResponse {
    let serving = isServing()
    let now = counters.snapshot
    let body =
      #"{"status":"\#(serving ? "ok" : "shutting down")","version":"\#(ReleaseVersion.current)","#
      + #""uptime_s":\#(counters.uptimeSeconds),"connections":\#(now.connections)}"# + "\n"
    return HTTPResponse(
      status: serving ? .ok : .serviceUnavailable,
      headers: [("Content-Type", "application/json"), ("Cache-Control", "no-store")],
      body: Array(body.utf8), closesConnection: true)
  }
}
