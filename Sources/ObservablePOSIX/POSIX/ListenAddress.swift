/// Where the server listens: a TCP host and port, or a Unix domain socket path.
///
/// The textual forms are `host:port`, `[v6address]:port` and `unix:/path`.
public enum ListenAddress: Sendable, Hashable, CustomStringConvertible {
  /// TCP on a host name or numeric address; port 0 picks a free port.
  case tcp(host: String, port: UInt16)
  /// A Unix domain stream socket at a file system path.
  case unix(path: String)

  /// Parses `host:port`, `[v6address]:port` or `unix:/path`; returns `nil` when malformed.
  public init?(_ text: String) {
    if text.hasPrefix("unix:") {
      let path = String(text.dropFirst(5))
      guard !path.isEmpty, path.utf8.count < 108 else { return nil }
      self = .unix(path: path)
      return
    }
    let host: Substring
    let portText: Substring
    if text.hasPrefix("[") {
      guard let close = text.firstIndex(of: "]") else { return nil }
      host = text[text.index(after: text.startIndex)..<close]
      let rest = text[text.index(after: close)...]
      guard rest.hasPrefix(":") else { return nil }
      portText = rest.dropFirst()
    } else {
      guard let colon = text.lastIndex(of: ":") else { return nil }
      host = text[..<colon]
      portText = text[text.index(after: colon)...]
      guard !host.contains(":") else { return nil }
    }
    guard !host.isEmpty, let port = UInt16(portText) else { return nil }
    self = .tcp(host: String(host), port: port)
  }

  public var description: String {
    switch self {
    case .tcp(let host, let port):
      host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    case .unix(let path):
      "unix:\(path)"
    }
  }
}
