import Foundation
import Glibc
import TestSupport
import XCTest

/// `observable-bench --scenario broadcast --nodes N` run as a user runs it, at a small scale:
/// real NATS servers, nodes and worker processes on loopback, and nothing left behind.
final class ClusterBroadcastBenchTests: XCTestCase {
  func testEverySubscriberOnEveryNodeGetsEachBroadcastAndNothingOutlivesTheRun() throws {
    let run = try BenchRun(self, ["--nodes", "2", "--cluster-subscribers", "\(2 * benchShare)"])
    XCTAssertEqual(run.waitForExit(seconds: 90), 0, run.errors)
    let data = try XCTUnwrap(run.output.data(using: .utf8))
    let report = try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    XCTAssertEqual(report["subscribers"] as? Int, 2 * benchShare)
    XCTAssertEqual(report["subscribers_per_node"] as? [Int], [benchShare, benchShare])
    let latencies = try XCTUnwrap(report["latencies_ms"] as? [Double])
    XCTAssertEqual(latencies.count, 3)
    XCTAssertTrue(latencies.allSatisfy { $0 > 0 && $0 < 10_000 }, "\(latencies)")
    let nodeCPU = try XCTUnwrap(report["nodes_cpu_ms"] as? [Double])
    XCTAssertTrue(nodeCPU.allSatisfy { $0 > 0 }, "\(nodeCPU)")
    XCTAssertEqual((report["nats_cpu_ms"] as? [Double])?.count, 3)
    XCTAssertEqual(run.survivors(), [], "processes of the bench still running")
  }

  func testSIGINTEndsTheNATSServersNodesAndWorkers() throws {
    let run = try BenchRun(self, ["--nodes", "2", "--cluster-subscribers", "\(2 * benchShare)"])
    // Workers start after the NATS servers and the nodes, so all are there once they are.
    let workersStarted = eventually(timeout: .seconds(60)) {
      run.survivors().filter { $0.contains("--broadcast-worker") }.count == 2
    }
    XCTAssertTrue(workersStarted, run.errors)
    XCTAssertEqual(run.survivors().count, 7, "3 NATS servers, 2 nodes, 2 workers")
    kill(run.process.processIdentifier, SIGINT)
    XCTAssertNotNil(run.waitForExit(seconds: 10))
    XCTAssertTrue(
      eventually(timeout: .seconds(5)) { run.survivors().isEmpty }, "\(run.survivors())")
  }

  func testTooFewNodesForTheSubscribersIsRefusedUpFront() throws {
    let run = try BenchRun(self, ["--nodes", "5", "--cluster-subscribers", "100000"])
    XCTAssertEqual(run.waitForExit(seconds: 20), 64)
    XCTAssertTrue(run.errors.contains("at least 6 nodes"), run.errors)
  }
}

/// One run of the built bench (debug, next to the server), its output in files, killed with
/// everything it started if the test ends first.
private final class BenchRun {
  let process = Process()
  private let directory: URL

  init(_ test: XCTestCase, _ arguments: [String]) throws {
    let products = ServerProcess.executable.deletingLastPathComponent()
    let bench = products.appendingPathComponent("observable-bench")
    try RequiredTool.require(
      FileManager.default.isExecutableFile(atPath: bench.path), "observable-bench (swift build)")
    try RequiredTool.require(
      FileManager.default.isExecutableFile(atPath: "/usr/sbin/nats-server"),
      "nats-server (apt-get install nats-server)")
    directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("cluster-bench-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    _ = FileManager.default.createFile(
      atPath: directory.appendingPathComponent("out").path, contents: nil)
    _ = FileManager.default.createFile(
      atPath: directory.appendingPathComponent("err").path, contents: nil)
    process.executableURL = bench
    process.arguments =
      ["--scenario", "broadcast", "--broadcasts", "3", "--json", "--no-build", "--timeout", "60"]
      + ["--server", ServerProcess.executable.path] + arguments
    process.standardOutput = try FileHandle(forWritingTo: directory.appendingPathComponent("out"))
    process.standardError = try FileHandle(forWritingTo: directory.appendingPathComponent("err"))
    try process.run()
    test.addTeardownBlock { [self] in
      // Survivors first: while one lives, the bench's end may not be seen.
      if process.isRunning { kill(process.processIdentifier, SIGKILL) }
      for pid in survivorPIDs() { kill(pid, SIGKILL) }
      _ = eventually(timeout: .seconds(10)) { !process.isRunning }
      try? FileManager.default.removeItem(at: directory)
    }
  }

  /// What the bench printed on standard output.
  var output: String { read("out") }
  /// What it logged on standard error.
  var errors: String { read("err") }

  /// The exit status, or `nil` when it is still running after `seconds`.
  func waitForExit(seconds: Int) -> Int32? {
    guard eventually(timeout: .seconds(seconds), { !process.isRunning }) else { return nil }
    process.waitUntilExit()
    return process.terminationStatus
  }

  /// The command lines of this bench's NATS servers, nodes and workers still running.
  func survivors() -> [String] { survivorPIDs().compactMap(Self.commandLine) }

  private func survivorPIDs() -> [pid_t] {
    let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
    return entries.compactMap { pid_t($0) }.filter { pid in
      guard let line = Self.commandLine(pid) else { return false }
      return line.contains("--server_name bench-n")
        || line.contains("--max-connections \(benchShare + 64) ")
        || (line.contains("--broadcast-worker")
          && line.contains("--broadcast-subscribers \(benchShare) "))
    }
  }

  private static func commandLine(_ pid: pid_t) -> String? {
    guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline"), !data.isEmpty
    else { return nil }
    // A zombie has an empty command line: it has ended, and is only waiting to be reaped.
    return String(decoding: data.map { $0 == 0 ? 0x20 : $0 }, as: UTF8.self)
  }

  private func read(_ name: String) -> String {
    (try? String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)) ?? ""
  }
}

/// Subscribers per node, odd so that the bench's processes are told apart from any other
/// test's: its nodes by their `--max-connections` (this plus 64), its workers by their count.
private let benchShare = 157
