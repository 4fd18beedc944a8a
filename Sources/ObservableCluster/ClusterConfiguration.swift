import NATS
import ObservableWire
import TLS

/// How a server joins a cluster through NATS (`--cluster`): the NATS servers to reach, the
/// subject prefix the nodes share, and how many copies JetStream keeps of retained values.
public struct ClusterConfiguration: Sendable {
  /// The NATS servers to try first; those a server advertises are added as they come.
  public var servers: [NATSServerURL]
  /// The first tokens of every subject the cluster uses, so that several clusters (or other
  /// applications) can share one NATS system.
  public var prefix: String
  /// How many NATS servers store each retained value; fewer when the NATS cluster is smaller.
  public var replicas: Int
  /// How long a retained publish is retried while JetStream cannot store it (no leader, no
  /// connection) before it fails with `unavailable`.
  public var storeTimeout: Duration = .seconds(10)
  /// How often the link pings its NATS server; ``maxPingsOut`` unanswered pings, with nothing
  /// else heard from it meanwhile, mean it is dead. A stopped server (its sockets open,
  /// nothing answered) is so found 2 to 3 s after it stopped, and the link is on the next
  /// server within 5 s. A busy one is not: its PONG waits behind the deliveries it queued
  /// before it (measured up to 3.3 s on a loaded machine), but those deliveries are heard,
  /// and the link reads what arrived before it judges (see `ClusterConnection`).
  public var pingInterval: Duration = .seconds(1)
  /// How many PINGs may be unanswered at a tick before the server is declared dead.
  public var maxPingsOut = 2
  /// How the link checks a NATS server that requires TLS (`tls_required` in its INFO, or a
  /// `tls://` URL), and the client certificate it presents; `nil`: the system's authorities
  /// and no certificate.
  public var tls: TLSClientConfiguration?
  /// The topic history JetStream keeps for the cluster (`--history`), or `nil` for none.
  public var history: ClusterHistorySettings?

  /// A configuration from the URLs users write (`nats://[user:password@|token@]host[:port]`).
  public init(urls: [String], prefix: String = "obs", replicas: Int = 3)
    throws(ClusterConfigurationError)
  {
    guard !urls.isEmpty else { throw ClusterConfigurationError("--cluster needs a URL") }
    var servers: [NATSServerURL] = []
    for url in urls {
      do {
        servers.append(try NATSServerURL(parsing: url))
      } catch {
        throw ClusterConfigurationError("--cluster \(url): \(error)")
      }
    }
    guard (try? StreamName.validate(prefix)) != nil else {
      throw ClusterConfigurationError(
        "--cluster-prefix \(prefix): expected tokens of [A-Za-z0-9_-] joined by dots")
    }
    guard (1...5).contains(replicas) else {
      throw ClusterConfigurationError("--cluster-replicas must be between 1 and 5")
    }
    self.servers = servers
    self.prefix = prefix
    self.replicas = replicas
  }
}

/// Why a cluster configuration was refused, in a sentence for the command line.
public struct ClusterConfigurationError: Error, CustomStringConvertible {
  /// What is wrong and with which flag.
  public let description: String

  /// An error saying `description`.
  init(_ description: String) {
    self.description = description
  }
}
