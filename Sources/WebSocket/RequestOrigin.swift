/// Compares a browser's `Origin` (`scheme://host[:port]`, RFC 6454) with a request's `Host`.
public enum RequestOrigin {
  /// Whether `origin` is the origin of a page served by the listener the request came in on:
  /// the same scheme as `scheme` (the listener's, `http` or `https`), the same host and the
  /// same port as `host`, the default port of the scheme standing in for a missing one.
  /// `null` and other schemes never match.
  public static func matches(_ origin: String, host: String, scheme: String = "http") -> Bool {
    let lowered = origin.lowercased()
    let prefix = scheme.lowercased() + "://"
    let defaultPort: Int
    switch prefix {
    case "http://": defaultPort = 80
    case "https://": defaultPort = 443
    default: return false
    }
    guard lowered.hasPrefix(prefix) else { return false }
    let authority = lowered.dropFirst(prefix.count)
    guard !authority.contains("/"), !authority.contains("@"),
      let originAuthority = split(authority, defaultPort: defaultPort),
      let hostAuthority = split(Substring(host.lowercased()), defaultPort: defaultPort)
    else { return false }
    return originAuthority == hostAuthority
  }

  /// Whether `host` (a `Host` value, `host[:port]`) names the server by an IP address or as
  /// `localhost`, which no other site's page can name: a name in DNS can be rebound to the
  /// server's address by whoever owns it, whose page is then "same-origin" with the server.
  public static func isRebindingProof(host: String) -> Bool {
    guard let name = split(Substring(host.lowercased()), defaultPort: 0)?.host else {
      return false
    }
    if name == "localhost" { return true }
    if name.hasPrefix("[") {
      // A bracketed IPv6 literal; no name in DNS can be written so.
      let inside = name.dropFirst().dropLast()
      return !inside.isEmpty && inside.contains(":")
        && inside.allSatisfy { $0.isHexDigit || $0 == ":" || $0 == "." }
    }
    let parts = name.split(separator: ".", omittingEmptySubsequences: false)
    return parts.count == 4
      && parts.allSatisfy { part in
        !part.isEmpty && part.count <= 3 && part.allSatisfy(\.isASCII)
          && part.allSatisfy(\.isNumber)
          && Int(part).map { $0 <= 255 } == true
      }
  }

  /// `(host, port)` of `host[:port]` or `[v6]:port`; nil when the port is not a number.
  static func split(_ authority: Substring, defaultPort: Int) -> HostAndPort? {
    guard !authority.isEmpty else { return nil }
    var hostEnd = authority.endIndex
    if authority.hasPrefix("[") {
      guard let close = authority.firstIndex(of: "]") else { return nil }
      hostEnd = authority.index(after: close)
    } else if let colon = authority.lastIndex(of: ":") {
      hostEnd = colon
    }
    let host = authority[..<hostEnd]
    let rest = authority[hostEnd...]
    guard !host.isEmpty else { return nil }
    if rest.isEmpty { return HostAndPort(host: String(host), port: defaultPort) }
    guard rest.first == ":", rest.count > 1, rest.count <= 6,
      let port = Int(rest.dropFirst()), (0...65535).contains(port)
    else { return nil }
    return HostAndPort(host: String(host), port: port)
  }

  /// A host and a port, compared together.
  struct HostAndPort: Hashable {
    /// The host, lower-cased, brackets kept for IPv6.
    let host: String
    /// The port, explicit or the scheme's default.
    let port: Int
  }
}
