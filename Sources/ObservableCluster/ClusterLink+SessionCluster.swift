import ObservableSession

/// The cluster as a session sees it: where clustered retained publishes, clears and lists go,
/// and the size every publish must fit.
extension ClusterLink: SessionCluster {}
