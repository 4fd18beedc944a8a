import ArgumentParser
import Foundation
import Glibc

/// `--scenario broadcast --nodes N`, and the client worker processes it starts.
extension BenchCommand {
  /// Runs a cluster broadcast or one of its workers when the options ask for one; `false`
  /// leaves the run to the other scenarios.
  func runClusterModes() throws -> Bool {
    if let port = clusterBroadcast.broadcastWorker {
      ChildProcessGuard.install(hardLimitSeconds: timeout + 10)
      try runBroadcastWorker(port: port)
      return true
    }
    guard clusterBroadcast.nodes != nil else { return false }
    guard scenarios == [.broadcast] else {
      BenchLog.note("--nodes belongs to --scenario broadcast, run alone")
      throw ExitCode.validationFailure
    }
    ChildProcessGuard.install(hardLimitSeconds: timeout + 10)
    try runClusterBroadcast()
    return true
  }

  /// The parent: the NATS cluster, the nodes, the workers, the publishes and the table.
  func runClusterBroadcast() throws {
    try reportingFailure {
      guard connect == nil else {
        throw BenchError.refused("--scenario broadcast starts its own servers: drop --connect")
      }
      // The nodes inherit it for their share of the subscribers.
      try FileLimit.raise(toAtLeast: FileLimit.hardLimit())
      let deadline = Deadline(secondsFromNow: timeout)
      let executable = try ServerExecutable.resolve(
        explicitPath: server, build: !noBuild, deadline: deadline)
      guard let bench = Self.ownExecutable() else {
        throw BenchError.server("cannot find this benchmark's own path to start its workers")
      }
      let loadAverage =
        ProcFile.read("/proc/loadavg")?.split(separator: " ").prefix(3)
        .joined(separator: " ") ?? "unknown"
      let shares = clusterBroadcast.shares
      BenchLog.note(
        "broadcast over \(shares.count) nodes: \(shares.reduce(0, +)) subscribers, load \(loadAverage)"
      )
      let scenario = ClusterBroadcastScenario(
        shares: shares, broadcasts: broadcast.broadcasts, observableServer: executable,
        benchExecutable: bench, seconds: deadline.secondsLeft)
      let report = ClusterBroadcastReport(
        result: try scenario.run(deadline: deadline), loadAverage: loadAverage)
      print(json ? report.json() : report.table())
    }
  }

  /// A worker: subscribes its share to one node, then writes `ready` and, per broadcast,
  /// `arrived VALUE NANOSECONDS` to its standard output, the parent's pipe; then waits to be
  /// stopped, so that closing its connections does not load the nodes while they are measured.
  func runBroadcastWorker(port: UInt16) throws {
    let deadline = Deadline(secondsFromNow: timeout)
    do {
      try FileLimit.raise(toAtLeast: FileLimit.hardLimit())
      let count = broadcast.subscribers
      let subscribers = try BroadcastSubscribers(
        server: .observable, port: port, count: count, deadline: deadline)
      Self.tell("ready")
      for value in 0..<broadcast.broadcasts {
        let last = try subscribers.awaitDelivered(count * (value + 1), deadline: deadline)
        Self.tell("arrived \(value) \(last)")
      }
      while !deadline.hasPassed { usleep(100_000) }
      withExtendedLifetime(subscribers) {}
    } catch {
      Self.tell("failed \(error)")
      throw ExitCode.failure
    }
  }

  /// One line to the parent, written whole at once so that it is never split.
  private static func tell(_ line: String) {
    let bytes = Array((line.replacingOccurrences(of: "\n", with: " ") + "\n").utf8)
    _ = bytes.withUnsafeBytes { write(1, $0.baseAddress, $0.count) }
  }

  private static func ownExecutable() -> String? {
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
    guard count > 0 else { return nil }
    return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }
}
