import Foundation
import Glibc
import Locking

@testable import ObservablePOSIX
@testable import ObservableServer

/// A built executable (`observable-server`, `observable`) run as a real process, as users run
/// it. Killed with SIGKILL when the value goes away, so nothing a test starts outlives it.
final class ChildProcess: Sendable {
  /// The built product named `name`, next to the test bundle where `swift build` puts it.
  static func executable(_ name: String) -> URL {
    let bundle = Bundle.main.bundleURL.deletingLastPathComponent()
    let candidates = [
      bundle, URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(),
    ]
    return candidates.map { $0.appendingPathComponent(name) }
      .first { FileManager.default.isExecutableFile(atPath: $0.path) }
      ?? candidates[0].appendingPathComponent(name)
  }

  private let process: Locked<Process>
  private let pid: Int32
  private let stdoutText = Collected()
  private let stderrText = Collected()
  private let input: FileHandle?

  /// Starts `name` with `arguments`, the test's environment plus `environment`, and, when
  /// `withInput` is set, a pipe as its standard input.
  init(
    _ name: String, _ arguments: [String], environment: [String: String] = [:],
    withInput: Bool = false
  ) throws {
    let process = Process()
    process.executableURL = Self.executable(name)
    process.arguments = arguments
    process.environment = ProcessInfo.processInfo.environment
      .filter { !$0.key.hasPrefix("OBSERVABLE_SERVER") }
      .merging(environment) { $1 }
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    if withInput {
      let pipe = Pipe()
      process.standardInput = pipe
      input = pipe.fileHandleForWriting
    } else {
      process.standardInput = FileHandle.nullDevice
      input = nil
    }
    for (pipe, collected) in [(out, stdoutText), (err, stderrText)] {
      pipe.fileHandleForReading.readabilityHandler = { handle in
        let data = handle.availableData
        if data.isEmpty {
          handle.readabilityHandler = nil
          collected.finish()
        } else {
          collected.append(data)
        }
      }
    }
    try process.run()
    pid = process.processIdentifier
    self.process = Locked(process)
  }

  deinit {
    kill(pid, SIGKILL)
    process.withLock { $0.waitUntilExit() }
  }

  /// What the process wrote to stdout so far.
  var stdout: String { stdoutText.text }
  /// What the process wrote to stderr so far.
  var stderr: String { stderrText.text }
  /// The lines of stdout so far.
  var lines: [String] { stdout.split(separator: "\n").map(String.init) }

  /// Writes `text` to the process's standard input.
  func write(_ text: String) { input?.write(Data(text.utf8)) }

  /// Closes the process's standard input.
  func closeInput() { try? input?.close() }

  /// Sends `signal` to the process.
  func signal(_ number: Int32) { kill(pid, number) }

  /// Waits for the process to exit, up to `timeout`; its status, or `nil` if it did not.
  func waitForExit(timeout: Duration = .seconds(10)) -> Int32? {
    guard eventuallyBlocking(timeout: timeout, { !process.withLock { $0.isRunning } }) else {
      return nil
    }
    // The last output may still be in the pipes; their ends say it has all been read.
    _ = eventuallyBlocking(timeout: .seconds(2)) { stdoutText.finished && stderrText.finished }
    return process.withLock { $0.terminationStatus }
  }
}

/// Output from one pipe, appended from its reading thread.
private final class Collected: Sendable {
  private let data = Locked(Data())
  private let ended = Locked(false)

  func append(_ chunk: Data) { data.withLock { $0.append(chunk) } }
  func finish() { ended.withLock { $0 = true } }
  var finished: Bool { ended.withLock { $0 } }
  var text: String { data.withLock { String(decoding: $0, as: UTF8.self) } }
}

/// An `observable-server` process listening on `port` of 127.0.0.1.
func startServerProcess(port: UInt16, arguments: [String] = []) throws -> ChildProcess {
  let server = try ChildProcess(
    "observable-server", ["--listen", "127.0.0.1:\(port)", "--log-level", "info"] + arguments)
  guard eventuallyBlocking(timeout: .seconds(10), { server.stderr.contains("listening") }) else {
    throw ServerDidNotStart(output: server.stderr)
  }
  return server
}

/// The server process logged no `listening` line in time.
struct ServerDidNotStart: Error {
  let output: String
}

/// A loopback port that was free a moment ago, chosen below the kernel's ephemeral range
/// (32768 and up), so no socket bound to port 0 meanwhile can be given it before the process
/// the test starts binds it.
func freePort() throws -> UInt16 {
  for _ in 0..<100 {
    let port = UInt16.random(in: 20_000...32_000)
    guard let fd = try? SocketCalls.listen(on: .tcp(host: "127.0.0.1", port: port), backlog: 1)
    else { continue }
    close(fd)
    return port
  }
  throw SystemError(call: "bind (no free port below the ephemeral range)", code: EADDRINUSE)
}
