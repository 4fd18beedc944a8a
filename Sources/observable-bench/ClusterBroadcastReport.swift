import Foundation

/// What ``ClusterBroadcastScenario`` measured.
struct ClusterBroadcastResult: Sendable {
  /// Subscribers on each node.
  let shares: [Int]
  let figures: ClusterBroadcastFigures
  /// The nodes' summed RSS growth over subscribing, per subscriber.
  let bytesPerConnection: Double
  let rssBefore: Int
  let rssAfter: Int
  /// Starting the workers until every subscription on every node was confirmed.
  let setupSeconds: Double
  /// Nodes whose log says their sends are batched through io_uring.
  let nodesUsingIOUring: Int

  var subscribers: Int { shares.reduce(0, +) }
  var p50: Double { BroadcastResult.percentile(50, of: figures.latenciesMilliseconds) }
  var p99: Double { BroadcastResult.percentile(99, of: figures.latenciesMilliseconds) }
  var nodeCPUMean: Double { Self.mean(figures.nodeCPUMilliseconds) }
  var natsCPUMean: Double { Self.mean(figures.natsCPUMilliseconds) }

  private static func mean(_ values: [Double]) -> Double {
    values.reduce(0, +) / Double(max(1, values.count))
  }
}

/// The cluster broadcast's figures, as a table or as JSON.
struct ClusterBroadcastReport {
  let result: ClusterBroadcastResult
  /// The load average when the run began, so a reader can judge how busy the machine was.
  let loadAverage: String

  /// The table people read.
  func table() -> String {
    let figures = result.figures
    let cells: [(String, String)] = [
      ("p50 ms", Format.decimal(result.p50)),
      ("p99 ms", Format.decimal(result.p99)),
      ("nodes cpu ms/bcast", Format.decimal(result.nodeCPUMean)),
      (
        "nodes cpu p50",
        Format.decimal(BroadcastResult.percentile(50, of: figures.nodeCPUMilliseconds))
      ),
      ("nats cpu ms/bcast", Format.decimal(result.natsCPUMean)),
      ("KiB/conn", Format.decimal(result.bytesPerConnection / 1024)),
      ("setup s", Format.decimal(result.setupSeconds)),
      ("backlog drops", result.figures.backlogDrops.map(String.init) ?? "?"),
    ]
    let shares = result.shares.map(String.init).joined(separator: ", ")
    let title =
      "broadcast over a cluster: \(result.subscribers) subscribers on \(result.shares.count)"
      + " observable-server nodes (\(shares)), 3 NATS servers,"
      + " \(figures.latenciesMilliseconds.count) broadcasts published on node 0;"
      + " load average at start \(loadAverage)"
    let header = cells.map { Self.pad($0.0, to: $0.0.count + 2) }.joined()
    let row = cells.map { Self.pad($0.1, to: $0.0.count + 2) }.joined()
    let legend =
      "p50/p99: publish to the last arrival on any node (nearest rank); cpu: user+system per"
      + " broadcast summed over the nodes, and over the NATS servers; KiB/conn: the nodes' RSS"
      + " growth per subscriber; io_uring on \(result.nodesUsingIOUring) of"
      + " \(result.shares.count) nodes; backlog drops: packets the kernel dropped at a full"
      + " per-CPU input queue during the broadcasts (net.core.netdev_max_backlog), which TCP"
      + " retransmits"
    return [title, header, row, legend].joined(separator: "\n")
  }

  private static func pad(_ cell: String, to width: Int) -> String {
    cell.count >= width ? cell + " " : cell + String(repeating: " ", count: width - cell.count)
  }

  /// One JSON object with every figure, each broadcast's included.
  func json() -> String {
    let figures = result.figures
    // Built in parts: one literal this size is more than the type checker will take.
    var object: [String: Any] = [
      "scenario": "broadcast-cluster", "load_average": loadAverage,
      "nodes": result.shares.count, "subscribers_per_node": result.shares,
      "subscribers": result.subscribers, "nodes_io_uring": result.nodesUsingIOUring,
    ]
    object["p50_ms"] = result.p50
    object["p99_ms"] = result.p99
    object["nodes_cpu_ms_per_broadcast"] = result.nodeCPUMean
    object["nats_cpu_ms_per_broadcast"] = result.natsCPUMean
    object["bytes_per_connection"] = result.bytesPerConnection
    object["rss_before_bytes"] = result.rssBefore
    object["rss_after_bytes"] = result.rssAfter
    object["setup_s"] = result.setupSeconds
    object["backlog_drops"] = figures.backlogDrops
    object["latencies_ms"] = figures.latenciesMilliseconds
    object["nodes_cpu_ms"] = figures.nodeCPUMilliseconds
    object["nats_cpu_ms"] = figures.natsCPUMilliseconds
    guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
    else { return "{}" }
    return String(decoding: data, as: UTF8.self)
  }
}
