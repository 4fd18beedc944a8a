/// Why a NATS URL was refused; each case carries the text, so a user sees what to fix.
public enum NATSURLError: Error, Equatable, CustomStringConvertible {
  /// No `scheme://` at the start.
  case missingScheme(String)
  /// A scheme other than `nats` or `tls`.
  case unsupportedScheme(String)
  /// A path, query or fragment after the address.
  case unexpectedPath(String)
  /// An `@` with nothing before it.
  case emptyUser(String)
  /// No host, or an IPv6 address without brackets.
  case badHost(String)
  /// A port that is not 1 to 65535.
  case badPort(String)
  /// A `%` not followed by two hexadecimal digits, or escapes that are not UTF-8.
  case badEscape(String)

  /// A sentence for the user.
  public var description: String {
    switch self {
    case .missingScheme(let text):
      "'\(text)' is not a NATS URL: expected nats://host:port or tls://host:port"
    case .unsupportedScheme(let scheme):
      "scheme '\(scheme)' is not supported: use nats:// or tls://"
    case .unexpectedPath(let text): "'\(text)' has a path or query; a NATS URL has none"
    case .emptyUser(let text): "'\(text)' has an empty user before '@'"
    case .badHost(let text): "'\(text)' has no valid host (IPv6 addresses go in brackets)"
    case .badPort(let text): "'\(text)' has a port that is not a number from 1 to 65535"
    case .badEscape(let text): "'\(text)' has an invalid %-escape"
    }
  }
}
