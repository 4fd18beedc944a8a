/// The soak's invariants, checked against the baselines, with the figures that go in the row.
struct SoakCheck {
  /// Counters before any client, after the warm-up, and after the soak's clients left.
  var cold: StatsFeed.Counters
  var warmEnd: StatsFeed.Counters
  var final: StatsFeed.Counters
  /// The server's open descriptors, by what they refer to.
  var coldDescriptors: [String]
  var finalDescriptors: [String]
  var warmRSS: Int
  var finalRSS: Int
  var tally: SoakTally
  var stall: StallProbe.Figures
  var serverRunning: Bool
  var errorLines: [String]

  /// Subscriptions opened and closed during the soak proper, from the server's own counters.
  var subscribes: Int { final.subscribesTotal - warmEnd.subscribesTotal }
  var disconnects: Int { final.disconnectsTotal - warmEnd.disconnectsTotal }
  var rssLimit: Int {
    warmRSS
      + max(SoakScenario.rssMarginBytes, Int(Double(warmRSS) * SoakScenario.rssMarginFraction))
  }
  var longestStallMilliseconds: Double { Double(stall.longestNanoseconds) / 1e6 }

  /// Every invariant that failed, as a sentence; empty when the server came through.
  var problems: [String] {
    var problems: [String] = []
    if !serverRunning { problems.append("the server is no longer running") }
    if let first = errorLines.first {
      problems.append("\(errorLines.count) error lines in the server's log, first: \(first)")
    }
    if final.connections != cold.connections {
      problems.append("connections: \(final.connections), baseline \(cold.connections)")
    }
    if final.subscriptions != cold.subscriptions {
      problems.append("subscriptions: \(final.subscriptions), baseline \(cold.subscriptions)")
    }
    if disconnects != subscribes {
      problems.append("disconnects_total grew by \(disconnects), subscribes_total by \(subscribes)")
    }
    if finalDescriptors.count != coldDescriptors.count {
      let gone = coldDescriptors.filter { !finalDescriptors.contains($0) }
      let new = finalDescriptors.filter { !coldDescriptors.contains($0) }
      problems.append(
        "open descriptors: \(finalDescriptors.count), baseline \(coldDescriptors.count) "
          + "(closed since: \(gone.joined(separator: " ")); opened since: "
          + "\(new.joined(separator: " ")))")
    }
    if finalRSS > rssLimit {
      problems.append(
        "RSS \(Format.bytes(Double(finalRSS))) is past \(Format.bytes(Double(rssLimit))) "
          + "(warm baseline \(Format.bytes(Double(warmRSS))) + 25 %, at least 16 MiB)")
    }
    if let failure = stall.failure { problems.append("the pinging bystander: \(failure)") }
    if longestStallMilliseconds > SoakScenario.stallLimitMilliseconds {
      problems.append(
        "a ping took \(Int(longestStallMilliseconds)) ms, over "
          + "\(Int(SoakScenario.stallLimitMilliseconds)) ms")
    }
    if tally.errors > 0 {
      problems.append("\(tally.errors) error replies, first: \(tally.firstError ?? "?")")
    }
    if tally.unexpectedCloses > 0 {
      problems.append(
        "\(tally.unexpectedCloses) clients closed unexpectedly, first: "
          + (tally.firstUnexpectedClose ?? "?"))
    }
    if tally.unanswered > 0 {
      problems.append("\(tally.unanswered) requests unanswered when half-closing clients ended")
    }
    if tally.authTimeoutMissed > 0 {
      problems.append("\(tally.authTimeoutMissed) clients without auth were not closed in 9 s")
    }
    if tally.forced > 0 { problems.append("\(tally.forced) clients had to be reset at the end") }
    return problems
  }

  /// The row's result: what was done and the figures a reader checks first.
  var summary: String {
    "\(Format.grouped(tally.clients)) clients, \(Format.grouped(tally.requests)) requests, "
      + "\(Format.grouped(subscribes)) subscribes = \(Format.grouped(disconnects)) disconnects; "
      + "fds \(finalDescriptors.count)/\(coldDescriptors.count); RSS \(Format.bytes(Double(finalRSS))) "
      + "(warm \(Format.bytes(Double(warmRSS)))); longest ping \(Int(longestStallMilliseconds)) ms"
  }

  /// Everything measured, for `--json`.
  func metrics(warmUpClients: Int) -> [String: Double] {
    var metrics: [String: Double] = [
      "clients": Double(tally.clients), "warm_up_clients": Double(warmUpClients),
      "requests": Double(tally.requests), "replies": Double(tally.replies),
      "deliveries": Double(tally.deliveries), "subscribes": Double(subscribes),
      "disconnects": Double(disconnects), "connections_final": Double(final.connections),
      "connections_baseline": Double(cold.connections),
      "subscriptions_final": Double(final.subscriptions),
      "subscriptions_baseline": Double(cold.subscriptions),
      "fds_final": Double(finalDescriptors.count),
      "fds_baseline": Double(coldDescriptors.count),
      "rss_warm_bytes": Double(warmRSS), "rss_final_bytes": Double(finalRSS),
      "rss_limit_bytes": Double(rssLimit),
      "slow_consumer_closes_seen": Double(tally.slowConsumerCloses),
      "slow_consumers_total_delta": Double(final.slowConsumersTotal - warmEnd.slowConsumersTotal),
      "never_readers_outlived": Double(tally.neverReadersOutlived),
      "auth_timeout_closes_seen": Double(tally.authTimeoutCloses),
      "auth_timeouts_total_delta": Double(final.authTimeoutsTotal - warmEnd.authTimeoutsTotal),
      "pings": Double(stall.pings), "longest_ping_ms": longestStallMilliseconds,
      "mean_ping_ms": stall.pings > 0
        ? Double(stall.totalNanoseconds) / Double(stall.pings) / 1e6 : 0,
      "error_log_lines": Double(errorLines.count), "errors": Double(tally.errors),
      "unexpected_closes": Double(tally.unexpectedCloses), "unanswered": Double(tally.unanswered),
      "forced": Double(tally.forced), "server_running": serverRunning ? 1 : 0,
    ]
    for (role, count) in tally.started { metrics["clients_\(role.rawValue)"] = Double(count) }
    for (ending, count) in tally.endings { metrics["endings_\(ending.rawValue)"] = Double(count) }
    return metrics
  }
}
