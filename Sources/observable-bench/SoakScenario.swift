import Glibc

/// Soak: hundreds of clients doing a random mix of everything the protocol allows, well and
/// badly, for a long while; then checks that the server is back where it started.
///
/// The phases: a cold baseline of the server's counters and descriptors; a warm-up with the
/// full mix, after which resident memory is taken as the baseline (the heap, the allocator's
/// arenas and the retained values have grown to their working size by then); the soak proper;
/// the clients leave; and the invariants are checked against the baselines. A bystander pings
/// throughout and reports the longest round trip, the worst event-loop stall a client saw.
struct SoakScenario: Scenario {
  /// What `--duration`, `--clients` and `--token` ask for.
  struct Configuration: Sendable {
    var seconds: Double
    var clients: Int
    /// A token the started server requires; `nil` runs it without one.
    var token: String?
    /// Values of history per topic (`--history`); 0 keeps none.
    var history = 0
  }

  /// The started server's `--max-history-bytes` with history on: small, so the soak's values
  /// reach it and the oldest are evicted throughout, which is what the RSS check is for.
  static let maxHistoryBytes = 8 << 20

  let configuration: Configuration

  /// Resident memory may end this far above the warm baseline: 25 %, at least 16 MiB. glibc's
  /// malloc keeps freed memory in per-thread arenas and fragments under churn, so RSS after a
  /// busy phase does not return exactly; a leak of even 1 KiB per client served grows without
  /// bound across a long soak and leaves this margin soon.
  static let rssMarginFraction = 0.25
  static let rssMarginBytes = 16 << 20
  /// The longest ping round trip allowed: under the 5 s at which the systemd unit's watchdog
  /// (WatchdogSec=10s, pinged at half) would go unfed, with room for a busy shared machine.
  static let stallLimitMilliseconds = 2000.0
  /// Bytes queued for one client before the server closes it: small, so never-readers are
  /// found quickly and the memory they pin stays bounded.
  static let maxQueuedBytes = 262_144

  var name: String { "soak" }
  var parameter: String {
    "\(Format.grouped(configuration.clients)) clients, \(Int(configuration.seconds)) s"
      + (configuration.token == nil ? "" : ", token")
      + (configuration.history == 0 ? "" : ", history \(configuration.history)")
  }
  var warmUpSeconds: Double { min(30, max(5, configuration.seconds / 10)) }

  var serverNeeds: ServerNeeds {
    var arguments = ["--max-queued-bytes", "\(Self.maxQueuedBytes)"]
    if let token = configuration.token { arguments += ["--token", token] }
    if configuration.history > 0 {
      arguments += [
        "--history", "\(configuration.history)", "--max-history-bytes", "\(Self.maxHistoryBytes)",
      ]
    }
    return ServerNeeds(arguments: arguments, capturesLog: true)
  }

  func run(server: ServerUnderTest, deadline: Deadline) throws(BenchError) -> ResultRow {
    guard server.pid != nil else {
      throw .refused("soak reads the server's descriptors and memory: drop --connect")
    }
    let token = configuration.token
    let stats = try StatsFeed(address: server.address, token: token, deadline: deadline)
    let load = SoakLoad(
      address: server.address, token: token, clients: configuration.clients,
      clearSupported: try SoakHelp.listsClear(server.address, token: token, deadline: deadline))
    // The baseline includes the two connections that stay throughout: stats and the probe.
    let probe = StallProbe(address: server.address, token: token)
    guard probe.awaitFirstPing() else {
      throw .unexpected("the bystander got no answer to ping: \(probe.stop().failure ?? "?")")
    }
    let cold = try stats.settled(deadline: deadline)
    let coldDescriptors = server.descriptorTargets() ?? []
    var warmTally = SoakTally()
    try load.run(seconds: warmUpSeconds, deadline: deadline, stats: stats, tally: &warmTally)
    _ = try settle(stats, to: cold, descriptors: coldDescriptors, server, deadline)
    let warmRSS = server.residentBytes() ?? 0
    let warmEnd = try stats.settled(deadline: deadline)

    BenchLog.note("soak: warmed up (\(warmTally.clients) clients); soaking for \(parameter)")
    let meter = CPUMeter(serverPID: server.pid)
    var tally = SoakTally()
    try load.run(seconds: configuration.seconds, deadline: deadline, stats: stats, tally: &tally)
    let cpu = meter.finish()
    let final = try settle(stats, to: cold, descriptors: coldDescriptors, server, deadline)
    // Read before the probe stops, since its connection is part of the baseline.
    let finalDescriptors = server.descriptorTargets() ?? []
    let finalRSS = server.residentBytes() ?? 0
    let stall = probe.stop()

    let check = SoakCheck(
      cold: cold, warmEnd: warmEnd, final: final, coldDescriptors: coldDescriptors,
      finalDescriptors: finalDescriptors, warmRSS: warmRSS, finalRSS: finalRSS, tally: tally,
      stall: stall,
      serverRunning: server.isRunning, errorLines: Self.errorLines(in: server.logPath))
    return ResultRow(
      scenario: name, parameter: parameter, result: check.summary, problems: check.problems,
      cpu: cpu, metrics: check.metrics(warmUpClients: warmTally.clients))
  }

  /// Waits up to 15 s for connections, subscriptions and descriptors to return to `cold`,
  /// since disconnects finish on the server's loops after the clients' sockets close.
  private func settle(
    _ stats: StatsFeed, to cold: StatsFeed.Counters, descriptors: [String],
    _ server: ServerUnderTest, _ deadline: Deadline
  ) throws(BenchError) -> StatsFeed.Counters {
    let end = MonotonicTime.now() + 15_000_000_000
    var counters = try stats.settled(deadline: deadline)
    while MonotonicTime.now() < end {
      if counters.connections == cold.connections, counters.subscriptions == cold.subscriptions,
        server.openDescriptors() == descriptors.count
      {
        break
      }
      counters = try stats.next(deadline: deadline)
    }
    return counters
  }

  /// Lines of the server's log at level error or critical.
  private static func errorLines(in path: String?) -> [String] {
    guard let path, let log = ProcFile.read(path) else { return [] }
    return log.split(separator: "\n").filter {
      $0.contains("level=error") || $0.contains("level=critical")
    }.map(String.init)
  }
}
