import Logging
import ObservableAuthorization
import ObservableCounters
import ObservableLogging
import ObservableStreams

/// Made in `ObservableServer`, another module, which a memberwise initializer does not reach.
extension SessionContext {
  /// The context of every session of one server.
  package init(
    registry: StreamRegistry, cluster: (any SessionCluster)?, token: String?,
    access: (any AccessRules)? = nil, authTimeout: Duration, maxSubscriptions: Int,
    warnings: RepeatedWarnings, counters: ServerCounters, logger: Logger,
    store: (any SessionStore)? = nil
  ) {
    self.registry = registry
    self.token = token
    self.access = access ?? SharedTokenAccess(token: token)
    self.authTimeout = authTimeout
    self.maxSubscriptions = maxSubscriptions
    self.warnings = warnings
    self.counters = counters
    self.logger = logger
    self.cluster = cluster
    self.store = store
  }

  /// Whether a client must send `auth` before anything else.
  package var requiresAuthentication: Bool { access.requiresAuthentication }
}
