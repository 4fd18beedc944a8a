import Foundation
import Glibc
import Locking

@testable import ObservablePOSIX
@testable import ObservableServer

/// The built `observable-server` executable run as a black box, as a user would run it.
///
/// The process is killed when the value goes away, so nothing a test starts outlives it.
final class ServerProcess: @unchecked Sendable {
  // Unchecked: the log is behind a lock; the rest is set once in init.

  /// The executable next to the test bundle, where `swift build` puts products.
  static var executable: URL {
    let bundle = Bundle.main.bundleURL.deletingLastPathComponent()
    let candidates = [
      bundle, URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(),
    ]
    return candidates.map { $0.appendingPathComponent("observable-server") }
      .first { FileManager.default.isExecutableFile(atPath: $0.path) }
      ?? candidates[0].appendingPathComponent("observable-server")
  }

  let process = Process()
  private let log = LogCollector()

  /// Starts `launcher` (default: the server itself) with `arguments` and extra environment.
  init(arguments: [String], launcher: [String] = [], environment: [String: String] = [:]) throws {
    let server = Self.executable.path
    if launcher.isEmpty {
      process.executableURL = Self.executable
      process.arguments = arguments
    } else {
      process.executableURL = URL(fileURLWithPath: launcher[0])
      process.arguments = Array(launcher.dropFirst()) + [server] + arguments
    }
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    let errors = Pipe()
    process.standardError = errors
    process.standardOutput = errors
    let log = self.log
    errors.fileHandleForReading.readabilityHandler = { handle in
      let data = handle.availableData
      if data.isEmpty {
        handle.readabilityHandler = nil
        log.finish()
      } else {
        log.append(data)
      }
    }
    try process.run()
  }

  deinit {
    if process.isRunning {
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
    }
  }

  /// Everything the process wrote to stderr and stdout so far.
  var output: String { log.text }

  /// Waits until the log contains `text`, up to `timeout`.
  func waitForLog(_ text: String, timeout: Duration = .seconds(10)) -> Bool {
    eventually(timeout: timeout) { output.contains(text) }
  }

  /// The TCP port of the first `listening address=HOST:PORT` line, once logged.
  func listeningPort(timeout: Duration = .seconds(10)) -> UInt16? {
    var port: UInt16?
    _ = eventually(timeout: timeout) {
      for line in output.split(separator: "\n") where line.contains("listening") {
        if let range = line.range(of: #"address=\S+:(\d+)"#, options: .regularExpression),
          let value = UInt16(line[range].split(separator: ":").last ?? "")
        {
          port = value
          return true
        }
      }
      return false
    }
    return port
  }

  /// Waits until the process has exited, without waiting for the end of its output.
  ///
  /// Time a shutdown with this: a process another test spawns meanwhile can inherit the
  /// write end of the output pipe, and then the pipe ends only when that process does.
  func waitUntilExited(timeout: Duration) -> Bool {
    eventually(timeout: timeout) { !process.isRunning }
  }

  /// The process's resident set size in bytes, from /proc.
  var residentBytes: Int? {
    guard
      let status = try? String(
        contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8),
      let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
      let kilobytes = Int(line.split(separator: " ").dropFirst().first ?? "")
    else { return nil }
    return kilobytes * 1024
  }

  /// Sends `signal` to the process.
  func signal(_ number: Int32) {
    kill(process.processIdentifier, number)
  }

  /// Waits for the process to exit, up to `timeout`; returns its status, or `nil` if it did not.
  func waitForExit(timeout: Duration) -> Int32? {
    guard eventually(timeout: timeout, { !process.isRunning }) else { return nil }
    process.waitUntilExit()
    // The last output may still be in the pipe; the end of the pipe says it has all been read.
    _ = eventually(timeout: .seconds(2)) { log.finished }
    return process.terminationStatus
  }
}

/// The output of a process, appended from the pipe's reading thread.
private final class LogCollector: Sendable {
  private let data = Locked(Data())
  private let ended = Locked(false)

  func append(_ chunk: Data) { data.withLock { $0.append(chunk) } }

  func finish() { ended.withLock { $0 = true } }

  var finished: Bool { ended.withLock { $0 } }

  var text: String { data.withLock { String(decoding: $0, as: UTF8.self) } }
}

/// A free loopback TCP port, for a process a test starts on it.
///
/// Chosen below the kernel's ephemeral range (32768 and up), so no socket bound to port 0
/// meanwhile (a test's in-process server, a client's own end) can be given the same port
/// between this check and the process binding it.
func freeLoopbackPort() throws -> UInt16 {
  for _ in 0..<100 {
    let port = UInt16.random(in: 20_000...32_000)
    guard let fd = try? SocketCalls.listen(on: .tcp(host: "127.0.0.1", port: port), backlog: 1)
    else { continue }
    close(fd)
    return port
  }
  throw SystemError(call: "bind (no free port below the ephemeral range)", code: EADDRINUSE)
}

/// A fresh path for a Unix socket in the temporary directory.
func temporarySocketPath(_ name: String) -> String {
  "/tmp/os-test-\(getpid())-\(name)-\(UInt32.random(in: 0...UInt32.max)).sock"
}
