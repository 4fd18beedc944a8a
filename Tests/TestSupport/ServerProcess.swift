import Foundation
import Glibc

/// The built `observable-server` executable run as a black box, as a user would run it, with
/// its standard output and error in one log, in the order it wrote them.
///
/// The process is killed when the value goes away, so nothing a test starts outlives it.
public final class ServerProcess: @unchecked Sendable {
  // Unchecked: the log is behind a lock; the rest is set once in init.

  /// The server executable `swift build` made.
  public static var executable: URL { BuiltProduct.url("observable-server") }

  public let process = Process()
  private let log: ProcessOutput

  /// Starts `launcher` (default: the server itself) with `arguments` and extra environment.
  public init(arguments: [String], launcher: [String] = [], environment: [String: String] = [:])
    throws
  {
    let server = Self.executable.path
    if launcher.isEmpty {
      process.executableURL = Self.executable
      process.arguments = arguments
    } else {
      process.executableURL = URL(fileURLWithPath: launcher[0])
      process.arguments = Array(launcher.dropFirst()) + [server] + arguments
    }
    process.environment = BuiltProduct.environment(environment)
    let errors = Pipe()
    process.standardError = errors
    process.standardOutput = errors
    log = ProcessOutput(reading: errors)
    try process.run()
  }

  /// Starts a server on 127.0.0.1:`port`, logging at `info`, with `arguments` besides, and
  /// waits until it logs that it listens.
  public convenience init(port: UInt16, arguments: [String] = []) throws {
    try self.init(
      arguments: ["--listen", "127.0.0.1:\(port)", "--log-level", "info"] + arguments)
    guard waitForLog("listening") else {
      throw TestSupportError("the server logged no `listening` line in time:\n\(output)")
    }
  }

  deinit {
    if process.isRunning {
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
    }
  }

  /// Everything the process wrote to stderr and stdout so far.
  public var output: String { log.text }

  /// Waits until the log contains `text`, up to `timeout`.
  public func waitForLog(_ text: String, timeout: Duration = .seconds(10)) -> Bool {
    eventually(timeout: timeout) { output.contains(text) }
  }

  /// The TCP port of the first `listening address=HOST:PORT` line, once logged.
  public func listeningPort(timeout: Duration = .seconds(10)) -> UInt16? {
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
  public func waitUntilExited(timeout: Duration) -> Bool {
    eventually(timeout: timeout) { !process.isRunning }
  }

  /// Sends `signal` to the process.
  public func signal(_ number: Int32) {
    kill(process.processIdentifier, number)
  }

  /// Waits for the process to exit, up to `timeout`; returns its status, or `nil` if it did not.
  public func waitForExit(timeout: Duration = .seconds(10)) -> Int32? {
    guard eventually(timeout: timeout, { !process.isRunning }) else { return nil }
    process.waitUntilExit()
    // The last output may still be in the pipe; the end of the pipe says it has all been read.
    _ = eventually(timeout: .seconds(2)) { log.finished }
    return process.terminationStatus
  }
}
