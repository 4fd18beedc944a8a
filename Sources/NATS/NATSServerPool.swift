/// The servers a client may connect to, in the order it tries them.
///
/// It starts with the configured URLs and adds those a server advertises in `connect_urls`,
/// so that a client configured with one server can reach the others when that one dies.
/// Attempts rotate over the servers; the wait grows only once every server has failed in a
/// row, so a dead server is replaced by a live one at once.
public struct NATSServerPool: Sendable, Equatable {
  /// The known servers, configured ones first.
  public private(set) var servers: [NATSServerURL]
  /// Failed attempts since the last successful connection.
  public private(set) var failures = 0
  /// The server of the last attempt.
  public private(set) var current: NATSServerURL?
  /// The index of the last attempt's server. The next attempt is the one after it, counted
  /// when it is made: servers learnt meanwhile are in the rotation, so a node that learnt the
  /// others from its first server's INFO goes to another one when that server dies, not back
  /// to it (which cost a stopped server's whole handshake timeout).
  private var lastIndex: Int?
  /// The credentials given to learnt servers: a cluster shares its accounts.
  private let learntCredentials: NATSCredentials

  /// A pool of the configured servers; at least one.
  public init(configured: [NATSServerURL]) {
    precondition(!configured.isEmpty, "a NATS server pool needs at least one server")
    var unique: [NATSServerURL] = []
    for server in configured where !unique.contains(where: { $0.sameServer(as: server) }) {
      unique.append(server)
    }
    servers = unique
    learntCredentials = configured[0].credentials
  }

  /// Adds the servers of an INFO's `connect_urls` that are new; returns how many.
  @discardableResult
  public mutating func learn(connectURLs: [String]) -> Int {
    var added = 0
    for text in connectURLs {
      guard let server = try? NATSServerURL(connectURL: text, credentials: learntCredentials),
        !servers.contains(where: { $0.sameServer(as: server) })
      else { continue }
      servers.append(server)
      added += 1
    }
    return added
  }

  /// The next server to try, and how long to wait before trying it.
  public mutating func nextAttempt(
    policy: NATSReconnectPolicy, using generator: inout some RandomNumberGenerator
  ) -> (server: NATSServerURL, delay: Duration) {
    let index = lastIndex.map { ($0 + 1) % servers.count } ?? 0
    lastIndex = index
    let server = servers[index]
    current = server
    // Each server gets one immediate try after a success; then the back-off starts.
    let delay =
      failures < servers.count
      ? Duration.zero
      : policy.delay(afterFailures: failures - servers.count + 1, using: &generator)
    return (server, delay)
  }

  /// Records that the last attempt failed, or that its connection was lost.
  public mutating func attemptFailed() {
    failures += 1
  }

  /// Records a completed handshake: the next loss starts again without waiting.
  public mutating func connected() {
    failures = 0
  }
}
