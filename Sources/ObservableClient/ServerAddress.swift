/// Where a server listens, as users write it: `host:port`, `[v6addr]:port` or `unix:/path`.
public enum ServerAddress: Sendable, Equatable, CustomStringConvertible {
  /// A TCP address; `host` is a name or a numeric address (without brackets).
  case tcp(host: String, port: UInt16)
  /// A Unix domain socket's path.
  case unix(path: String)

  /// Reads an address written as `host:port`, `[v6addr]:port` or `unix:/path`.
  ///
  /// - Throws: ``ClientError/invalidAddress(_:)`` when it is none of these.
  public init(parsing text: String) throws(ClientError) {
    if text.hasPrefix("unix:") {
      let path = String(text.dropFirst(5))
      // sun_path holds 108 bytes including the terminating zero.
      guard !path.isEmpty, path.utf8.count < 108 else { throw .invalidAddress(text) }
      self = .unix(path: path)
      return
    }
    let host: Substring
    let portText: Substring
    if text.hasPrefix("[") {
      guard let close = text.firstIndex(of: "]"),
        text[text.index(after: close)...].hasPrefix(":")
      else { throw .invalidAddress(text) }
      host = text[text.index(after: text.startIndex)..<close]
      portText = text[text.index(close, offsetBy: 2)...]
    } else {
      guard let colon = text.lastIndex(of: ":") else { throw .invalidAddress(text) }
      host = text[..<colon]
      portText = text[text.index(after: colon)...]
      // An unbracketed IPv6 address is ambiguous: its last group could be the port.
      guard !host.contains(":") else { throw .invalidAddress(text) }
    }
    guard !host.isEmpty, let port = UInt16(portText), port > 0 else {
      throw .invalidAddress(text)
    }
    self = .tcp(host: String(host), port: port)
  }

  /// The address as it is written, for messages.
  public var description: String {
    switch self {
    case .tcp(let host, let port): host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    case .unix(let path): "unix:\(path)"
    }
  }
}
