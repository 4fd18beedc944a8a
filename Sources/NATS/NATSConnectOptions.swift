#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The body of CONNECT: what the client asks of the server.
///
/// The flags are fixed where the cluster depends on them: headers for JetStream replies and
/// no-responders statuses, no echo so that a node does not receive its own publishes back,
/// and no verbose `+OK` after every command.
public struct NATSConnectOptions: Sendable, Equatable, Encodable {
  /// The connection's name, shown in the server's monitoring.
  public var name: String
  /// The client version reported to the server.
  public var version: String
  /// Whether the server sends this connection's own publishes back to it.
  public var echo: Bool
  /// The credentials; set from the URL of each server connected to.
  public var credentials: NATSCredentials

  /// Options with the cluster's fixed flags.
  public init(
    name: String, version: String = "1.0", echo: Bool = false,
    credentials: NATSCredentials = .none
  ) {
    self.name = name
    self.version = version
    self.echo = echo
    self.credentials = credentials
  }

  private enum CodingKeys: String, CodingKey {
    case verbose, pedantic, headers, echo
    case protocolVersion = "protocol"
    case name, lang, version
    case noResponders = "no_responders"
    case user, pass
    case authToken = "auth_token"
  }

  /// Encodes the fields the notes require, and the credentials only when there are some.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(false, forKey: .verbose)
    try container.encode(false, forKey: .pedantic)
    try container.encode(true, forKey: .headers)
    try container.encode(true, forKey: .noResponders)
    try container.encode(echo, forKey: .echo)
    try container.encode(1, forKey: .protocolVersion)
    try container.encode(name, forKey: .name)
    try container.encode("swift", forKey: .lang)
    try container.encode(version, forKey: .version)
    switch credentials {
    case .none: break
    case .user(let user, let password):
      try container.encode(user, forKey: .user)
      try container.encode(password, forKey: .pass)
    case .token(let token):
      try container.encode(token, forKey: .authToken)
    }
  }
}
