import Foundation

/// The broadcast comparison: one row per server and run, as a table or as JSON.
struct BroadcastReport {
  let results: [BroadcastResult]
  let broadcasts: Int
  /// The load average when the run began, so a reader can judge how busy the machine was.
  let loadAverage: String

  /// The table people read.
  func table() -> String {
    var lines = [
      "broadcast: \(results.first?.subscribers ?? 0) subscribers, \(broadcasts) broadcasts each;"
        + " load average at start \(loadAverage)",
      pad([
        "server", "p50 ms", "p99 ms", "cpu ms/bcast", "cpu p50", "wait p50", "bench cpu",
        "bench wait", "KiB/conn", "setup s",
      ]),
    ]
    for result in results {
      var name = result.peer.rawValue + (result.threads.map { " -t\($0)" } ?? "")
      if result.usedIOUring == false { name += " (no io_uring!)" }
      lines.append(
        pad([
          name, Format.decimal(result.p50), Format.decimal(result.p99),
          Format.decimal(result.cpuMean), Format.decimal(result.cpuMedian),
          Format.decimal(result.waitMedian), Format.decimal(result.benchCPUMedian),
          Format.decimal(result.benchWaitMedian),
          Format.decimal(result.bytesPerConnection / 1024), Format.decimal(result.setupSeconds),
        ]))
    }
    lines.append(
      "p50/p99: publish to the last subscriber's arrival (nearest rank; with 20 broadcasts p99 is"
        + " the slowest); cpu: server user+system per broadcast (mean, median); wait: server"
        + " time runnable without a CPU per broadcast (median, its threads summed); bench cpu,"
        + " bench wait: the same for this benchmark, publish to last arrival (medians);"
        + " KiB/conn: server RSS growth per subscriber")
    return lines.joined(separator: "\n")
  }

  /// One JSON object with every figure, each broadcast's included.
  func json() -> String {
    let rows: [[String: Any]] = results.map { result in
      var row: [String: Any] = [
        "server": result.peer.rawValue, "subscribers": result.subscribers,
        "p50_ms": result.p50, "p99_ms": result.p99,
        "cpu_ms_per_broadcast": result.cpuMean, "cpu_ms_median": result.cpuMedian,
        "bytes_per_connection": result.bytesPerConnection, "rss_before_bytes": result.rssBefore,
        "rss_after_bytes": result.rssAfter, "setup_s": result.setupSeconds,
        "latencies_ms": result.latenciesMilliseconds, "cpu_ms": result.cpuMilliseconds,
        "wait_ms": result.waitMilliseconds, "wait_ms_median": result.waitMedian,
        "bench_cpu_ms": result.benchCPUMilliseconds, "bench_wait_ms": result.benchWaitMilliseconds,
      ]
      if let used = result.usedIOUring { row["io_uring"] = used }
      if let threads = result.threads { row["threads"] = threads }
      return row
    }
    let object: [String: Any] = [
      "scenario": "broadcast", "broadcasts": broadcasts, "load_average": loadAverage,
      "results": rows,
    ]
    guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
    else { return "{}" }
    return String(decoding: data, as: UTF8.self)
  }

  private func pad(_ cells: [String]) -> String {
    zip(cells, [26, 9, 9, 13, 9, 9, 10, 11, 9, 8]).map { cell, width in
      cell.count >= width ? cell + " " : cell + String(repeating: " ", count: width - cell.count)
    }.joined()
  }
}
