import ObservableStreams

/// The cluster as the streams layer sees it: it replicates a registry's values.
extension ClusterLink: StreamReplication {
  package func stream(named name: String, isPattern: Bool, in registry: StreamRegistry)
    -> NamedStream
  {
    registry.clusteredStream(named: name, isPattern: isPattern, link: self)
  }
}

extension StreamRegistry {
  /// The link to the other nodes, with `--cluster`: the registry's replication, which is only
  /// ever a ``ClusterLink``. Read for every publish, so an unclustered server pays only the
  /// test of an optional, not a dynamic cast.
  package var cluster: ClusterLink? {
    guard let replication else { return nil }
    return replication as? ClusterLink
  }
}
