import Logging
import ObservableAuthorization
import ObservableCounters
import ObservableLogging
import ObservableStreams

/// What the sessions of one server share: its streams, its access rules, its counters and its
/// log. Nothing in it knows about sockets.
package struct SessionContext: Sendable {
  /// Every stream by name.
  let registry: StreamRegistry
  /// When set, a client must send `auth` with this token before anything else.
  package let token: String?
  /// Who may do what: `--token`, `--auth-file` and `--jwt-key`, asked through a protocol so
  /// that the session names no hash and no JWT library.
  package let access: any AccessRules
  /// How long a client may take to authenticate when a token is set.
  let authTimeout: Duration
  /// How many subscriptions, patterns included, one connection may hold.
  let maxSubscriptions: Int
  /// Where warnings clients can repeat at will (wrong tokens, slow consumers, corrupt input)
  /// are logged, at a bounded rate.
  package let warnings: RepeatedWarnings
  /// The server's counters.
  package let counters: ServerCounters
  /// Where sessions log.
  package let logger: Logger
  /// The link to the other nodes, with `--cluster`: read for every publish, so it is kept
  /// here rather than cast from the registry's replication each time.
  let cluster: (any SessionCluster)?
  /// The store on disk, with `--data-dir`: where retained publishes and clears are written.
  let store: (any SessionStore)?

}
