import ArgumentParser
import Foundation
import Glibc
import ObservableServer

/// `--scenario fan-out`, `memory` and `latency` with `--peers` or `--tls`: observable-server
/// beside Redis, NATS and Mosquitto, in one run, with its own table.
extension BenchCommand {
  /// Whether the command line asks for the comparison rather than observable-server alone.
  var comparesPeers: Bool {
    (broadcast.peers != nil || tls) && !scenarios.contains(.broadcast)
      && clusterBroadcast.nodes == nil
  }

  /// Refuses what the comparison does not measure.
  func validateComparison() throws {
    if scenarios.contains(.broadcast) {
      // Unknown --peers are refused by BroadcastOptions, whose names are the comparisons'.
      guard !tls else {
        throw ValidationError("--tls measures fan-out and memory; broadcast has no TLS mode")
      }
    }
    guard comparesPeers else { return }
    let others = scenarios.filter { $0 != .fanOut && $0 != .memory && $0 != .latency }
    guard others.isEmpty else {
      throw ValidationError(
        "--peers and --tls compare fan-out, memory and latency only, not "
          + others.map(\.rawValue).joined(separator: ", "))
    }
    guard !(tls && scenarios.contains(.latency)) else {
      throw ValidationError("--tls compares fan-out and memory; latency has no TLS mode")
    }
    guard ComparedServer.parse(broadcast.peers ?? "") != nil else {
      throw ValidationError(
        "--peers \(broadcast.peers ?? ""): expected observable, observable-epoll, redis, nats,"
          + " mosquitto")
    }
    guard connect == nil else {
      throw ValidationError("--peers and --tls start their own servers: drop --connect")
    }
  }

  /// How the fan-out rows' server CPU is read.
  static let cpuNote =
    "server ns/msg: the growth of its threads' run time (/proc/PID/task/*/schedstat) from the"
    + " first publish to 20 ms after the last delivery, over the deliveries"

  /// Runs the comparison when the command line asks for it; `false` otherwise.
  func runComparison() throws -> Bool {
    guard comparesPeers else { return false }
    let selected = scenarios.isEmpty ? [.fanOut] : scenarios
    try reportingFailure {
      let loadAverage =
        ProcFile.read("/proc/loadavg")?.split(separator: " ").prefix(3)
        .joined(separator: " ") ?? "unknown"
      let executable = try ServerExecutable.resolve(
        explicitPath: server, build: !noBuild, deadline: Deadline(secondsFromNow: timeout))
      let comparison = PeerComparison(
        servers: ComparedServer.parse(broadcast.peers ?? "") ?? [.observable], tls: tls,
        fanOutCounts: selected.contains(.fanOut) ? parsedSubscribers ?? [] : [],
        memoryConnections: selected.contains(.memory) ? connections : nil,
        latency: selected.contains(.latency)
          ? LatencyScenario.Configuration(
            rate: rate, subscribers: latencySubscribers, seconds: latencySeconds,
            payload: Payload(size: payloadBytes)) : nil,
        threads: serverThreads, messages: messages, window: window,
        payload: Payload(size: payloadBytes),
        repeats: broadcast.repeats, observableServer: executable,
        observableHasTLS: ServerExecutable.offersTLS(executable), secondsEach: timeout)
      ChildProcessGuard.install(
        hardLimitSeconds: timeout * Double(comparison.measurementCount + 1) + 30)
      let most = max(
        selected.contains(.memory) ? connections : 0, parsedSubscribers?.max() ?? 0,
        latencySubscribers)
      try FileLimit.raise(toAtLeast: most + 256)
      let (rows, notes) = try comparison.execute()
      let report = BenchReport(
        version: ObservableServer.version, cores: Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))),
        date: Date.now.formatted(.iso8601.year().month().day()),
        serverMode: "started",
        server: "\(executable) beside "
          + comparison.servers.filter { $0 != .observable }.map(\.rawValue)
          .joined(separator: ", ") + (tls ? ", every connection over TLS" : ""),
        notes: notes + ["load average at the start: \(loadAverage)"]
          + (selected.contains(.fanOut) ? [Self.cpuNote] : []) + self.notes([]),
        results: rows)
      print(json ? report.json() : report.table())
      if !report.passed { throw ExitCode.failure }
    }
    return true
  }
}
