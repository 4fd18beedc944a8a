/// The address of one NATS server and the credentials to present to it.
///
/// Parsed from what users write (`nats://user:password@host:4222`) and from what servers
/// advertise in INFO's `connect_urls` (`host:port`), so that both kinds of address can sit
/// in one rotation.
public struct NATSServerURL: Sendable, Hashable, CustomStringConvertible {
  /// The NATS client port, used when a URL names none.
  public static let defaultPort: UInt16 = 4222

  /// The host name or address, without the brackets an IPv6 address has in a URL.
  public var host: String
  /// The TCP port.
  public var port: UInt16
  /// The credentials from the URL's user part.
  public var credentials: NATSCredentials
  /// Whether the URL said `tls://`: the connection must be TLS even if the server's INFO does
  /// not ask for it (a server that does not offer TLS is then refused).
  public var requiresTLS: Bool

  /// An address from its parts.
  public init(
    host: String, port: UInt16 = Self.defaultPort, credentials: NATSCredentials = .none,
    requiresTLS: Bool = false
  ) {
    self.host = host
    self.port = port
    self.credentials = credentials
    self.requiresTLS = requiresTLS
  }

  /// Parses `nats://[user:password@|token@]host[:port]`, or `tls://` for a server that must
  /// speak TLS; IPv6 hosts go in brackets.
  public init(parsing text: String) throws(NATSURLError) {
    let parts = text.split(separator: "://", maxSplits: 1, omittingEmptySubsequences: false)
    guard parts.count == 2 else { throw .missingScheme(text) }
    let scheme = parts[0].lowercased()
    guard scheme == "nats" || scheme == "tls" else { throw .unsupportedScheme(scheme) }
    var rest = parts[1]
    // A trailing slash is what some tools append; any other path means a typo.
    if rest.hasSuffix("/") { rest = rest.dropLast() }
    guard !rest.contains("/"), !rest.contains("?"), !rest.contains("#") else {
      throw .unexpectedPath(text)
    }
    var credentials = NATSCredentials.none
    if let at = rest.lastIndex(of: "@") {
      let user = rest[..<at]
      rest = rest[rest.index(after: at)...]
      guard !user.isEmpty else { throw .emptyUser(text) }
      if let colon = user.firstIndex(of: ":") {
        credentials = .user(
          name: try Self.decodePercent(user[..<colon]),
          password: try Self.decodePercent(user[user.index(after: colon)...]))
      } else {
        credentials = .token(try Self.decodePercent(user))
      }
    }
    let (host, port) = try Self.hostAndPort(rest, whole: text, defaultPort: Self.defaultPort)
    self.init(host: host, port: port, credentials: credentials, requiresTLS: scheme == "tls")
  }

  /// Parses one entry of INFO's `connect_urls`: `host:port`, `[v6]:port`, or a bare host.
  public init(connectURL text: String, credentials: NATSCredentials = .none)
    throws(NATSURLError)
  {
    let (host, port) = try Self.hostAndPort(
      Substring(text), whole: text, defaultPort: Self.defaultPort)
    self.init(host: host, port: port, credentials: credentials)
  }

  /// The URL without its credentials, safe for logs and `stats`.
  public var description: String {
    let scheme = requiresTLS ? "tls" : "nats"
    return host.contains(":") ? "\(scheme)://[\(host)]:\(port)" : "\(scheme)://\(host):\(port)"
  }

  /// The same server, ignoring credentials: a server learnt from `connect_urls` is the one
  /// the user configured when only the password differs.
  public func sameServer(as other: NATSServerURL) -> Bool {
    host.lowercased() == other.host.lowercased() && port == other.port
  }

  private static func hostAndPort(_ text: Substring, whole: String, defaultPort: UInt16)
    throws(NATSURLError) -> (String, UInt16)
  {
    var host: Substring
    var portText: Substring?
    if text.hasPrefix("[") {
      guard let close = text.firstIndex(of: "]") else { throw .badHost(whole) }
      host = text[text.index(after: text.startIndex)..<close]
      let after = text[text.index(after: close)...]
      if !after.isEmpty {
        guard after.hasPrefix(":") else { throw .badHost(whole) }
        portText = after.dropFirst()
      }
      guard host.contains(":") else { throw .badHost(whole) }
    } else {
      let colons = text.filter { $0 == ":" }.count
      // Two colons or more without brackets is an IPv6 address whose port cannot be told apart.
      guard colons <= 1 else { throw .badHost(whole) }
      if let colon = text.firstIndex(of: ":") {
        host = text[..<colon]
        portText = text[text.index(after: colon)...]
      } else {
        host = text
      }
    }
    guard !host.isEmpty, !host.contains(where: { $0.isWhitespace || $0 == "@" }) else {
      throw .badHost(whole)
    }
    guard let portText else { return (String(host), defaultPort) }
    guard let port = UInt16(portText), port > 0 else { throw .badPort(whole) }
    return (String(host), port)
  }

  private static func decodePercent(_ text: Substring) throws(NATSURLError) -> String {
    guard text.contains("%") else { return String(text) }
    var bytes: [UInt8] = []
    var iterator = Array(text.utf8).makeIterator()
    while let byte = iterator.next() {
      guard byte == UInt8(ascii: "%") else {
        bytes.append(byte)
        continue
      }
      guard let high = iterator.next().flatMap(hexValue),
        let low = iterator.next().flatMap(hexValue)
      else { throw .badEscape(String(text)) }
      bytes.append(high << 4 | low)
    }
    guard let decoded = String(validating: bytes, as: UTF8.self) else {
      throw .badEscape(String(text))
    }
    return decoded
  }
}

private func hexValue(_ byte: UInt8) -> UInt8? {
  switch byte {
  case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
  case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
  case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
  default: nil
  }
}
