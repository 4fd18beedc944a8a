import Logging
import ObservableAuthorization
import ObservableCounters
import ObservableLogging
import ObservableStreams

/// What the sessions of one server share: its streams, its access rules, its counters and its
/// log. Nothing in it knows about sockets.
struct SessionContext: Sendable {
  /// Every stream by name.
  let registry: StreamRegistry
  /// When set, a client must send `auth` with this token before anything else.
  let token: String?
  /// Who may do what: `--token`, `--auth-file` and `--jwt-key`.
  let access: AccessPolicy
  /// How long a client may take to authenticate when a token is set.
  let authTimeout: Duration
  /// How many subscriptions, patterns included, one connection may hold.
  let maxSubscriptions: Int
  /// Where warnings clients can repeat at will (wrong tokens, slow consumers, corrupt input)
  /// are logged, at a bounded rate.
  let warnings: RepeatedWarnings
  /// The server's counters.
  let counters: ServerCounters
  /// Where sessions log.
  let logger: Logger
}
