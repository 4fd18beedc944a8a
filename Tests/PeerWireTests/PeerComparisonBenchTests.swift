import Foundation
import TestSupport
import XCTest

/// `observable-bench --scenario fan-out|memory|latency --peers redis,nats,mosquitto [--tls]` run as a
/// user runs it, at a small scale, against the real servers: every row measured, nothing
/// lost, and no server left running.
final class PeerComparisonBenchTests: XCTestCase {
  func testFanOutBesideRedisNATSAndMosquittoDeliversEveryMessage() throws {
    let report = try runBench(["--scenario", "fan-out", "--subscribers", "1,3"])
    let rows = try fanOutRows(report)
    XCTAssertEqual(
      rows.map { "\($0.peer) \($0.subscribers)" },
      [
        "observable 1", "redis 1", "nats 1", "mosquitto 1", "observable 3", "redis 3", "nats 3",
        "mosquitto 3",
      ])
    for row in rows {
      XCTAssertTrue(row.passed, "\(row)")
      XCTAssertEqual(row.delivered, 2000 * row.subscribers, "\(row)")
      XCTAssertGreaterThan(row.nanosecondsPerMessage, 0, "\(row)")
      XCTAssertFalse(row.tls)
    }
  }

  func testFanOutOverTLSSpeaksTLSToEveryPeer() throws {
    let report = try runBench(["--scenario", "fan-out", "--subscribers", "2", "--tls"])
    let rows = try fanOutRows(report)
    let notes = report["notes"] as? [String] ?? []
    // observable-server is measured over TLS once its listeners have it (`--tls-cert`).
    let withoutOurs = notes.contains { $0.contains("not measured over TLS") }
    XCTAssertEqual(
      rows.map(\.peer),
      (withoutOurs ? [] : ["observable"]) + ["redis", "nats", "mosquitto"])
    for row in rows {
      XCTAssertTrue(row.passed, "\(row)")
      XCTAssertTrue(row.tls, "\(row)")
      XCTAssertEqual(row.delivered, 4000, "\(row)")
      // The version and cipher the server chose, read from the session.
      XCTAssertTrue(row.result.contains(", TLSv1.3 TLS_AES_"), "\(row)")
    }
    XCTAssertEqual(survivors(), [], "servers of the bench still running")
  }

  /// Paced publishing to each server in turn, two rounds: every value reaches every
  /// subscriber, each row says how long the server waited for a CPU, and the notes give each
  /// server's medians over the rounds.
  func testLatencyBesideThePeersIsInterleavedOverTheRounds() throws {
    let report = try runBench([
      "--scenario", "latency", "--rate", "500", "--latency-seconds", "0.5",
      "--latency-subscribers", "3", "--repeats", "2",
    ])
    let rows = try XCTUnwrap(report["results"] as? [[String: Any]])
    let servers = ["observable", "redis", "nats", "mosquitto"]
    XCTAssertEqual(rows.map { $0["peer"] as? String ?? "?" }, servers + servers)
    for row in rows {
      XCTAssertEqual(row["passed"] as? Bool, true, "\(row)")
      let metrics = try XCTUnwrap(row["metrics"] as? [String: Double])
      XCTAssertEqual(metrics["samples"], 250 * 3, "\(row)")
      XCTAssertGreaterThan(metrics["p99_us"] ?? 0, 0, "\(row)")
      XCTAssertNotNil(metrics["server_runqueue_ms"], "\(row)")
    }
    let notes = report["notes"] as? [String] ?? []
    for server in servers {
      XCTAssertTrue(
        notes.contains { $0.hasPrefix("latency medians of 2 rounds, \(server): p50 ") }, "\(notes)")
    }
    XCTAssertEqual(survivors(), [], "servers of the bench still running")
  }

  func testIdleConnectionMemoryOfEachPeer() throws {
    let report = try runBench(["--scenario", "memory", "--connections", "120"])
    let rows = try XCTUnwrap(report["results"] as? [[String: Any]])
    XCTAssertEqual(
      rows.compactMap { $0["peer"] as? String }, ["observable", "redis", "nats", "mosquitto"])
    for row in rows {
      XCTAssertEqual(row["passed"] as? Bool, true, "\(row)")
      let metrics = try XCTUnwrap(row["metrics"] as? [String: Double])
      XCTAssertEqual(metrics["connections"], 120)
      XCTAssertNotNil(metrics["bytes_per_connection"], "\(row)")
    }
  }

  /// One value at a time to a few subscribers of each server in turn, Mosquitto's over MQTT
  /// among them: the run ends only once every subscriber had every value, and each row has the
  /// server's CPU and memory.
  func testBroadcastReachesEverySubscriberOfEveryServer() throws {
    let servers = ["observable", "observable-epoll", "redis", "nats", "mosquitto"]
    let report = try runBench(
      ["--scenario", "broadcast", "--broadcast-subscribers", "40", "--broadcasts", "3"],
      peers: servers.joined(separator: ","))
    let rows = try XCTUnwrap(report["results"] as? [[String: Any]])
    XCTAssertEqual(rows.map { $0["server"] as? String ?? "?" }, servers)
    for row in rows {
      XCTAssertEqual(row["subscribers"] as? Int, 40, "\(row)")
      let latencies = try XCTUnwrap(row["latencies_ms"] as? [Double], "\(row)")
      XCTAssertEqual(latencies.count, 3, "\(row)")
      XCTAssertTrue(latencies.allSatisfy { $0 > 0 }, "\(row)")
      XCTAssertGreaterThan(row["cpu_ms_per_broadcast"] as? Double ?? 0, 0, "\(row)")
      XCTAssertNotNil(row["bytes_per_connection"] as? Double, "\(row)")
    }
    XCTAssertEqual(survivors(), [], "servers of the bench still running")
  }

  func testAPeerUnknownToTheComparisonIsRefused() throws {
    let bench = try ChildProcess(
      "observable-bench", ["--scenario", "fan-out", "--peers", "kafka", "--no-build"])
    XCTAssertEqual(bench.waitForExit(timeout: .seconds(20)), 64)
    XCTAssertTrue(bench.stderr.contains("--peers"), bench.stderr)
  }

  /// Runs the bench with the peers, small counts, and the debug server built beside it.
  private func runBench(
    _ arguments: [String], peers: String = "redis,nats,mosquitto"
  ) throws -> [String: Any] {
    for (tool, path) in [
      ("redis-server", "/usr/bin/redis-server"), ("nats-server", "/usr/sbin/nats-server"),
      ("mosquitto", "/usr/sbin/mosquitto"), ("openssl", "/usr/bin/openssl"),
    ] {
      try RequiredTool.require(
        FileManager.default.isExecutableFile(atPath: path), "\(tool) (apt-get install \(tool))")
    }
    let bench = try ChildProcess(
      "observable-bench",
      arguments + [
        "--peers", peers, "--messages", "2000", "--json", "--no-build",
        "--timeout", "30", "--server", BuiltProduct.url("observable-server").path,
      ])
    XCTAssertEqual(bench.waitForExit(timeout: .seconds(150)), 0, bench.stderr)
    let line = try XCTUnwrap(bench.lines.last, bench.stderr)
    let object = try JSONSerialization.jsonObject(with: Data(line.utf8))
    return try XCTUnwrap(object as? [String: Any])
  }

  private func fanOutRows(_ report: [String: Any]) throws -> [FanOutRow] {
    let rows = try XCTUnwrap(report["results"] as? [[String: Any]])
    return try rows.map { row in
      let metrics = try XCTUnwrap(row["metrics"] as? [String: Double])
      return FanOutRow(
        peer: row["peer"] as? String ?? "?", passed: row["passed"] as? Bool ?? false,
        result: row["result"] as? String ?? "",
        subscribers: Int(metrics["subscribers"] ?? 0), delivered: Int(metrics["delivered"] ?? 0),
        nanosecondsPerMessage: metrics["server_ns_per_msg"] ?? 0, tls: metrics["tls"] == 1)
    }
  }

  /// Servers still running with a file of a bench's run folder on their command line.
  private func survivors() -> [String] {
    let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
    return entries.compactMap { pid -> String? in
      guard Int32(pid) != nil,
        let data = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline"), !data.isEmpty
      else { return nil }
      let line = String(decoding: data.map { $0 == 0 ? 0x20 : $0 }, as: UTF8.self)
      return line.contains("/tmp/observable-bench-peers-") ? line : nil
    }
  }
}

/// One fan-out row of the bench's JSON, as the tests check it.
private struct FanOutRow {
  let peer: String
  let passed: Bool
  let result: String
  let subscribers: Int
  let delivered: Int
  let nanosecondsPerMessage: Double
  let tls: Bool
}
