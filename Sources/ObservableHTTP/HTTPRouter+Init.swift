import ObservableAuthorization
import ObservableCluster
import ObservableCounters
import ObservableLogging

/// Made in `ObservableServer`, another module, which a memberwise initializer does not reach.
extension HTTPRouter {
  /// The router of one server's HTTP port.
  package init(
    counters: ServerCounters, allowOrigins: [String], cluster: ClusterLink?,
    isServing: @escaping @Sendable () -> Bool, scheme: String = "http",
    access: (any AccessRules)? = nil, warnings: RepeatedWarnings? = nil,
    eventHeartbeat: Duration = .seconds(15), eventRetry: Duration = .seconds(3),
    keepsHistory: Bool = false
  ) {
    self.keepsHistory = keepsHistory
    self.access = access
    self.warnings = warnings
    self.eventHeartbeat = eventHeartbeat
    self.eventRetry = eventRetry
    self.allowOrigins = allowOrigins
    self.counters = counters
    self.isServing = isServing
    self.cluster = cluster
    self.scheme = scheme
  }
}
