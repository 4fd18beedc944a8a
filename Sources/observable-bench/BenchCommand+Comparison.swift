import ArgumentParser
import Foundation
import Glibc
import ObservableServer

/// `--scenario fan-out` and `--scenario memory` with `--peers` or `--tls`: observable-server
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
      guard !tls else {
        throw ValidationError("--tls measures fan-out and memory; broadcast has no TLS mode")
      }
      guard broadcast.parsedPeers != nil else {
        throw ValidationError(
          "--peers \(broadcast.peers ?? ""): broadcast compares observable, observable-epoll,"
            + " redis, nats")
      }
    }
    guard comparesPeers else { return }
    let others = scenarios.filter { $0 != .fanOut && $0 != .memory }
    guard others.isEmpty else {
      throw ValidationError(
        "--peers and --tls compare fan-out and memory only, not "
          + others.map(\.rawValue).joined(separator: ", "))
    }
    guard ComparedServer.parse(broadcast.peers ?? "") != nil else {
      throw ValidationError(
        "--peers \(broadcast.peers ?? ""): expected observable, redis, nats, mosquitto")
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
    do {
      let loadAverage =
        ProcFile.read("/proc/loadavg")?.split(separator: " ").prefix(3)
        .joined(separator: " ") ?? "unknown"
      let executable = try ServerExecutable.resolve(
        explicitPath: server, build: !noBuild, deadline: Deadline(secondsFromNow: timeout))
      let comparison = PeerComparison(
        servers: ComparedServer.parse(broadcast.peers ?? "") ?? [.observable], tls: tls,
        fanOutCounts: selected.contains(.fanOut) ? parsedSubscribers ?? [] : [],
        memoryConnections: selected.contains(.memory) ? connections : nil,
        messages: messages, window: window, payload: Payload(size: payloadBytes),
        repeats: broadcast.repeats, observableServer: executable,
        observableHasTLS: ServerExecutable.offersTLS(executable), secondsEach: timeout)
      ChildProcessGuard.install(
        hardLimitSeconds: timeout * Double(comparison.measurementCount + 1) + 30)
      let most = max(selected.contains(.memory) ? connections : 0, parsedSubscribers?.max() ?? 0)
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
    } catch let error as BenchError {
      BenchLog.note("\(error)")
      if json { print(BenchReport.failure(error.description)) }
      throw ExitCode.failure
    }
    return true
  }
}
