import Foundation
import Glibc
import TestSupport
import XCTest

/// A real `nats-server` with JetStream on a free loopback port and its own store directory.
///
/// The process is killed and reaped by ``stop()``, which tests register as a teardown block,
/// and again when the value goes away, so no server outlives its test even when it fails.
final class NATSServerProcess {
  /// Where Debian installs the server.
  static let executable = "/usr/sbin/nats-server"

  /// Whether the server is installed, so that tests can skip with a clear reason if not.
  static var isInstalled: Bool { FileManager.default.isExecutableFile(atPath: executable) }

  /// The client port.
  let port: UInt16
  /// The server's directory: its configuration, store and log.
  let directory: URL
  private let process = Process()

  /// Starts a server with `configuration` (a nats-server config file body; `{port}` and
  /// `{dir}` are replaced) and waits until its client port accepts connections.
  init(name: String, port: UInt16, configuration: String, directory: URL) throws {
    self.port = port
    self.directory = directory
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let file = directory.appendingPathComponent("\(name).conf")
    try configuration.replacingOccurrences(of: "{port}", with: String(port))
      .replacingOccurrences(of: "{dir}", with: directory.path)
      .write(to: file, atomically: true, encoding: .utf8)
    let log = directory.appendingPathComponent("\(name).log")
    _ = FileManager.default.createFile(atPath: log.path, contents: nil)
    process.executableURL = URL(fileURLWithPath: Self.executable)
    process.arguments = ["-c", file.path]
    let handle = try FileHandle(forWritingTo: log)
    process.standardOutput = handle
    process.standardError = handle
    try process.run()
  }

  /// A single server with JetStream on a free port, in a new temporary directory.
  static func startSingle(_ test: XCTestCase, extra: String = "") throws -> NATSServerProcess {
    try RequiredTool.require(isInstalled, "nats-server (apt-get install nats-server)")
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("nats-test-\(UUID().uuidString)")
    test.addTeardownBlock { try? FileManager.default.removeItem(at: directory) }
    let configuration = """
      listen: 127.0.0.1:{port}
      jetstream { store_dir: "{dir}/store", max_memory_store: 64MB, max_file_store: 256MB }
      \(extra)
      """
    // Another process may take the free port before the server binds it: try a few.
    for _ in 0..<3 {
      let server = try NATSServerProcess(
        name: "single", port: try freeLoopbackPort(), configuration: configuration,
        directory: directory)
      test.addTeardownBlock { server.stop() }
      if server.waitUntilAccepting(timeout: .seconds(10)) { return server }
      server.stop()
    }
    throw NATSTestFailure("nats-server did not start; see \(directory.path)")
  }

  deinit { stop() }

  /// Whether the process still runs.
  var isRunning: Bool { process.isRunning }

  /// The server's log so far, for failure messages.
  var log: String {
    let files = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
    return files.filter { $0.hasSuffix(".log") }.compactMap {
      try? String(contentsOf: directory.appendingPathComponent($0), encoding: .utf8)
    }.joined(separator: "\n")
  }

  /// Waits until a TCP connection to the client port succeeds, or the process exits.
  func waitUntilAccepting(timeout: Duration) -> Bool {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline && process.isRunning {
      if let fd = try? NATSSocket.connect(host: "127.0.0.1", port: port, timeout: .seconds(1)) {
        Glibc.close(fd)
        return true
      }
      usleep(20_000)
    }
    return false
  }

  /// Sends `number` to the server, such as SIGSTOP to make it silent without closing.
  func signal(_ number: Int32) {
    if process.isRunning { kill(process.processIdentifier, number) }
  }

  /// Kills the server with `signal` and reaps it.
  func stop(signal: Int32 = SIGKILL) {
    guard process.isRunning else { return }
    kill(process.processIdentifier, signal)
    process.waitUntilExit()
  }
}

/// A test's own failure with a message.
struct NATSTestFailure: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}
