/// The protocol version on a request line; only 1.0 and 1.1 get past the parser.
public struct HTTPVersion: Sendable, Hashable, CustomStringConvertible {
  /// The digit before the dot.
  public let major: Int
  /// The digit after the dot.
  public let minor: Int

  /// `HTTP/1.0`.
  public static let http10 = HTTPVersion(major: 1, minor: 0)
  /// `HTTP/1.1`.
  public static let http11 = HTTPVersion(major: 1, minor: 1)

  /// `HTTP/major.minor`.
  public var description: String { "HTTP/\(major).\(minor)" }
}

/// A parsed request line and header section.
public struct HTTPRequestHead: Sendable, Hashable {
  /// The method, case-sensitive as RFC 9110 says (`GET`, not `get`).
  public let method: String
  /// The request target exactly as sent.
  public let target: String
  /// The path part of the target (`/ws`); for an absolute-form target, the path inside it;
  /// `*` for the asterisk form.
  public let path: String
  /// What followed the first `?`, without it; nil when there was no `?`.
  public let query: String?
  /// The protocol version.
  public let version: HTTPVersion
  /// The header fields.
  public let headers: HTTPHeaders

  /// A head; normally made by `HTTPRequestHeadParser`.
  public init(
    method: String, target: String, path: String, query: String?, version: HTTPVersion,
    headers: HTTPHeaders
  ) {
    self.method = method
    self.target = target
    self.path = path
    self.query = query
    self.version = version
    self.headers = headers
  }

  /// Whether the client asked to close after this response: `Connection: close`, or
  /// HTTP/1.0 without `Connection: keep-alive`.
  public var wantsClose: Bool {
    if headers.contains(token: "close", in: "Connection") { return true }
    return version == .http10 && !headers.contains(token: "keep-alive", in: "Connection")
  }
}

/// Why a head was refused, with the status to answer before closing.
public struct HTTPRequestHeadError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The status to send (400, 431, 501 or 505).
  public let status: HTTPStatus
  /// What was wrong, for logs.
  public let reason: String

  /// An error answering `status`.
  public init(_ status: HTTPStatus, _ reason: String) {
    self.status = status
    self.reason = reason
  }

  /// `status: reason`.
  public var description: String { "\(status): \(reason)" }
}
