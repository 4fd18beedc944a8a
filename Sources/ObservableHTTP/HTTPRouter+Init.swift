import ObservableCluster
import ObservableCounters

/// Made in `ObservableServer`, another module, which a memberwise initializer does not reach.
extension HTTPRouter {
  /// The router of one server's HTTP port.
  package init(
    counters: ServerCounters, allowOrigins: [String], cluster: ClusterLink?,
    isServing: @escaping @Sendable () -> Bool, scheme: String = "http"
  ) {
    self.allowOrigins = allowOrigins
    self.counters = counters
    self.isServing = isServing
    self.cluster = cluster
    self.scheme = scheme
  }
}
