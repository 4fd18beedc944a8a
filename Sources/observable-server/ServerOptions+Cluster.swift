import ArgumentParser
import ObservableCluster

/// The `--cluster` flags as a cluster configuration.
extension ServerOptions {
  /// The first flag given that means something only with `--cluster`, if any.
  var clusterOnlyFlagGiven: String? {
    if clusterPrefix != nil { return "--cluster-prefix" }
    if clusterReplicas != nil { return "--cluster-replicas" }
    return clusterTLS.flagGiven
  }

  func clusterConfiguration() throws -> ClusterConfiguration {
    do {
      var configuration = try ClusterConfiguration(
        urls: cluster, prefix: clusterPrefix ?? "obs", replicas: clusterReplicas ?? 3)
      configuration.tls = try clusterTLS.configuration()
      return configuration
    } catch let error as ClusterConfigurationError {
      throw ValidationError(error.description)
    }
  }
}
