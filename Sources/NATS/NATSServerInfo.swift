#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The fields of a server's `INFO` that a client acts on; others are ignored.
public struct NATSServerInfo: Sendable, Equatable, Codable {
  /// The server's unique id.
  public var serverID: String
  /// The configured server name (`n1`), empty when none.
  public var serverName: String
  /// The server's version, such as `2.9.10`.
  public var version: String
  /// The largest payload (headers included) the server accepts; a larger one closes the
  /// connection, so the client refuses it first.
  public var maxPayload: Int
  /// Whether the server accepts headers (`HPUB`/`HMSG`).
  public var headers: Bool
  /// Whether the server wants credentials in CONNECT.
  public var authRequired: Bool
  /// Whether JetStream is enabled on this server.
  public var jetStream: Bool
  /// Client addresses of the other servers of the cluster (`host:port`).
  public var connectURLs: [String]
  /// Lame duck mode: the server is about to shut down and clients should move elsewhere.
  public var lameDuckMode: Bool
  /// Whether the server requires TLS: nats-server 2.9 sends INFO in clear, then waits for the
  /// client's handshake on the same socket.
  public var tlsRequired: Bool

  /// An INFO from its parts, for tests and fakes.
  public init(
    serverID: String = "", serverName: String = "", version: String = "",
    maxPayload: Int = 1_048_576, headers: Bool = true, authRequired: Bool = false,
    jetStream: Bool = false, connectURLs: [String] = [], lameDuckMode: Bool = false,
    tlsRequired: Bool = false
  ) {
    self.serverID = serverID
    self.serverName = serverName
    self.version = version
    self.maxPayload = maxPayload
    self.headers = headers
    self.authRequired = authRequired
    self.jetStream = jetStream
    self.connectURLs = connectURLs
    self.lameDuckMode = lameDuckMode
    self.tlsRequired = tlsRequired
  }

  private enum CodingKeys: String, CodingKey {
    case serverID = "server_id"
    case serverName = "server_name"
    case version
    case maxPayload = "max_payload"
    case headers
    case authRequired = "auth_required"
    case jetStream = "jetstream"
    case connectURLs = "connect_urls"
    case lameDuckMode = "ldm"
    case tlsRequired = "tls_required"
  }

  /// Decodes INFO, where every field but `max_payload` may be missing.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    serverID = try container.decodeIfPresent(String.self, forKey: .serverID) ?? ""
    serverName = try container.decodeIfPresent(String.self, forKey: .serverName) ?? ""
    version = try container.decodeIfPresent(String.self, forKey: .version) ?? ""
    maxPayload = try container.decode(Int.self, forKey: .maxPayload)
    headers = try container.decodeIfPresent(Bool.self, forKey: .headers) ?? false
    authRequired = try container.decodeIfPresent(Bool.self, forKey: .authRequired) ?? false
    jetStream = try container.decodeIfPresent(Bool.self, forKey: .jetStream) ?? false
    connectURLs = try container.decodeIfPresent([String].self, forKey: .connectURLs) ?? []
    lameDuckMode = try container.decodeIfPresent(Bool.self, forKey: .lameDuckMode) ?? false
    tlsRequired = try container.decodeIfPresent(Bool.self, forKey: .tlsRequired) ?? false
  }
}
