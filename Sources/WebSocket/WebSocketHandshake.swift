/// An upgrade request refused, with the HTTP answer to send before closing.
public struct WebSocketHandshakeRefusal: Error, Sendable, Hashable {
  /// The response to write; it carries `Connection: close`.
  public let response: HTTPResponse

  /// A refusal answering `status` with `reason` as a plain-text body.
  init(_ status: HTTPStatus, _ reason: String, headers: [(String, String)] = []) {
    response = .text(status, reason, headers: headers)
  }

  /// Why, for logs: the response body without its newline.
  public var reason: String { String(decoding: response.body.dropLast(), as: UTF8.self) }
}

/// The server side of the opening handshake (RFC 6455 section 4.2): checks an upgrade
/// request, negotiates permessage-deflate and builds the `101` answer.
///
/// Origin policy is the caller's: `origin` and `isSameOrigin` give what it needs, and the
/// caller answers 403 itself before accepting.
public struct WebSocketHandshake: Sendable, Hashable {
  /// The GUID RFC 6455 appends to the key before hashing.
  public static let acceptGUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"

  /// The client's `Sec-WebSocket-Key`.
  public let key: String
  /// The `Sec-WebSocket-Accept` value answering `key`.
  public let accept: String
  /// The agreed permessage-deflate settings; nil means no compression.
  public let deflate: PerMessageDeflateParameters?
  /// The request's `Origin`, which browsers always send; nil for other clients.
  public let origin: String?
  /// Whether `origin` names the plain-HTTP origin of the request's `Host`: the same scheme
  /// (`http`, which the server speaks), host and port.
  public let isSameOrigin: Bool
  /// Whether the request's `Host` is an IP address or `localhost`, which a DNS-rebinding page
  /// cannot name (``RequestOrigin/isRebindingProof(host:)``).
  public let isHostRebindingProof: Bool

  /// Checks `head` as an upgrade request; throws the HTTP response to send instead when it
  /// is not an acceptable one (then close). `scheme` is the listener's, `http` or `https`
  /// (a page served over https has an `https://` origin).
  public init(
    _ head: HTTPRequestHead, deflate policy: PerMessageDeflatePolicy = PerMessageDeflatePolicy(),
    scheme: String = "http"
  ) throws(WebSocketHandshakeRefusal) {
    let headers = head.headers
    guard head.method == "GET" else {
      throw .init(
        .methodNotAllowed, "a WebSocket upgrade must use GET", headers: [("Allow", "GET")])
    }
    guard head.version == .http11 else {
      throw .init(.badRequest, "a WebSocket upgrade needs HTTP/1.1")
    }
    guard headers.contains(token: "websocket", in: "Upgrade") else {
      throw .init(
        .upgradeRequired, "this resource speaks WebSocket only",
        headers: [("Upgrade", "websocket"), ("Connection", "Upgrade")])
    }
    guard headers.contains(token: "upgrade", in: "Connection") else {
      throw .init(.badRequest, "Connection must contain the upgrade token")
    }
    guard headers.values("Sec-WebSocket-Version") == ["13"] else {
      throw .init(
        .upgradeRequired, "only WebSocket version 13 is spoken",
        headers: [("Sec-WebSocket-Version", "13")])
    }
    let keys = headers.values("Sec-WebSocket-Key")
    guard keys.count == 1, let key = keys.first, Base64.decode(key)?.count == 16 else {
      throw .init(.badRequest, "Sec-WebSocket-Key must be 16 bytes in base64")
    }
    self.key = key
    self.accept = Self.accept(forKey: key)
    self.deflate = PerMessageDeflateParameters.negotiate(
      offers: WebSocketExtensionOffer.offers(in: headers), policy: policy)
    let origins = headers.values("Origin")
    self.origin = origins.first
    self.isSameOrigin =
      origins.count == 1
      && headers["Host"].map { RequestOrigin.matches(origins[0], host: $0, scheme: scheme) }
        == true
    self.isHostRebindingProof = headers["Host"].map(RequestOrigin.isRebindingProof) == true
  }

  /// The origin policy: clients that send no `Origin` (not browsers) pass, as do origins in
  /// `allowList` (compared without regard to case or a trailing slash), and same-origin pages
  /// when `Host` is an IP address or `localhost`. A same-origin page whose `Host` is a DNS
  /// name does not pass: a DNS-rebinding page is same-origin too. Answer 403 otherwise.
  public func isOriginAllowed(by allowList: [String] = []) -> Bool {
    guard let origin else { return true }
    if isSameOrigin && isHostRebindingProof { return true }
    let normalized = Self.normalize(origin)
    return allowList.contains { Self.normalize($0) == normalized }
  }

  private static func normalize(_ origin: String) -> String {
    let lowered = origin.lowercased()
    return lowered.hasSuffix("/") ? String(lowered.dropLast()) : lowered
  }

  /// `Sec-WebSocket-Accept` for `key`: base64 of the SHA-1 of the key and the GUID.
  public static func accept(forKey key: String) -> String {
    Base64.encode(SHA1.digest(Array((key + acceptGUID).utf8)))
  }

  /// The `101 Switching Protocols` answer, with the extension response when compressing;
  /// `headers` adds fields (a subprotocol, a server name).
  public func response(headers extra: [(String, String)] = []) -> HTTPResponse {
    var headers = [
      ("Upgrade", "websocket"), ("Connection", "Upgrade"), ("Sec-WebSocket-Accept", accept),
    ]
    if let deflate { headers.append(("Sec-WebSocket-Extensions", deflate.responseValue)) }
    return HTTPResponse(status: .switchingProtocols, headers: headers + extra)
  }
}
