/// Compares a browser's `Origin` (`scheme://host[:port]`, RFC 6454) with a request's `Host`.
public enum RequestOrigin {
  /// Whether `origin` is an http(s) origin naming the same host and port as `host`, the
  /// default port of the origin's scheme standing in for a missing one. `null` and other
  /// schemes never match.
  public static func matches(_ origin: String, host: String) -> Bool {
    let lowered = origin.lowercased()
    let scheme: String
    let defaultPort: Int
    if lowered.hasPrefix("http://") {
      (scheme, defaultPort) = ("http://", 80)
    } else if lowered.hasPrefix("https://") {
      (scheme, defaultPort) = ("https://", 443)
    } else {
      return false
    }
    let authority = lowered.dropFirst(scheme.count)
    guard !authority.contains("/"), !authority.contains("@"),
      let originAuthority = split(authority, defaultPort: defaultPort),
      let hostAuthority = split(Substring(host.lowercased()), defaultPort: defaultPort)
    else { return false }
    return originAuthority == hostAuthority
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
