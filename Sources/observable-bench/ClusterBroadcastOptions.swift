import ArgumentParser

/// The options of `--scenario broadcast --nodes N`: one broadcast reaching subscribers spread
/// over N clustered observable-server nodes, and the hidden ones a client worker runs with.
struct ClusterBroadcastOptions: ParsableArguments {
  @Option(
    help: ArgumentHelp(
      "Broadcast over a cluster: observable-server nodes joined through a 3-server NATS cluster"
        + " (each holds at most 19,500 subscribers, a process having 20,000 files).",
      valueName: "n"))
  var nodes: Int?

  @Option(
    help: ArgumentHelp(
      "Broadcast over a cluster: subscribers in all, split evenly over the nodes.",
      valueName: "n"))
  var clusterSubscribers = 100_000

  /// Set only in a client worker the cluster broadcast started: the node port it subscribes to.
  @Option(help: .hidden)
  var broadcastWorker: UInt16?

  /// Subscribers per node, the first nodes taking one more when the count does not divide.
  var shares: [Int] {
    guard let nodes, nodes > 0 else { return [] }
    return (0..<nodes).map {
      clusterSubscribers / nodes + ($0 < clusterSubscribers % nodes ? 1 : 0)
    }
  }

  func validate() throws {
    guard let nodes else { return }
    guard nodes >= 1, nodes <= 32 else { throw ValidationError("--nodes must be 1 to 32") }
    guard clusterSubscribers >= nodes else {
      throw ValidationError("--cluster-subscribers must be at least --nodes")
    }
    guard (shares.first ?? 0) <= 19_500 else {
      let needed = (clusterSubscribers + 19_499) / 19_500
      throw ValidationError(
        "\(clusterSubscribers) subscribers need at least \(needed) nodes (19,500 each at most:"
          + " a process may open 20,000 files)")
    }
  }
}
