import Foundation
import Glibc
import Locking

/// A built executable (`observable`, `observable-server`) or a system tool used as a peer
/// (`openssl`, `python3`) run as a real process, with its standard output and error kept apart.
/// Killed with SIGKILL when the value goes away, so nothing a test starts outlives it.
public final class ChildProcess: Sendable {
  private let process: Locked<Process>
  private let pid: Int32
  private let stdoutText: ProcessOutput
  private let stderrText: ProcessOutput
  private let input: FileHandle?
  /// The executable's file name, for messages.
  let name: String

  /// Starts `name` with `arguments`, the test's environment plus `environment`, and, when
  /// `withInput` is set, a pipe as its standard input. A `launcher` (such as
  /// ``TestNetwork/launcher(in:)``) runs it, and must exec it so that signals reach it.
  public convenience init(
    _ name: String, _ arguments: [String], environment: [String: String] = [:],
    withInput: Bool = false, launcher: [String] = []
  ) throws {
    let command = launcher + [BuiltProduct.url(name).path] + arguments
    try self.init(
      executable: URL(fileURLWithPath: command[0]), Array(command.dropFirst()),
      completeEnvironment: BuiltProduct.environment(environment), withInput: withInput)
  }

  /// Starts `executable` with `arguments` and exactly `completeEnvironment`, and, when
  /// `withInput` is set, a pipe as its standard input.
  init(
    executable: URL, _ arguments: [String], completeEnvironment: [String: String],
    withInput: Bool
  ) throws {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    process.environment = completeEnvironment
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
    stdoutText = ProcessOutput(reading: out)
    stderrText = ProcessOutput(reading: err)
    try process.run()
    pid = process.processIdentifier
    name = executable.lastPathComponent
    self.process = Locked(process)
  }

  deinit {
    kill(pid, SIGKILL)
    process.withLock { $0.waitUntilExit() }
  }

  /// What the process wrote to stdout so far.
  public var stdout: String { stdoutText.text }
  /// What the process wrote to stderr so far.
  public var stderr: String { stderrText.text }
  /// The lines of stdout so far.
  public var lines: [String] { stdout.split(separator: "\n").map(String.init) }

  /// Writes `text` to the process's standard input.
  public func write(_ text: String) { try? input?.write(contentsOf: Data(text.utf8)) }

  /// Closes the process's standard input.
  public func closeInput() { try? input?.close() }

  /// Sends `signal` to the process.
  public func signal(_ number: Int32) { kill(pid, number) }

  /// Waits for the process to exit, up to `timeout`; its status, or `nil` if it did not.
  public func waitForExit(timeout: Duration = .seconds(10)) -> Int32? {
    guard eventually(timeout: timeout, { !process.withLock { $0.isRunning } }) else {
      return nil
    }
    // The last output may still be in the pipes; their ends say it has all been read.
    _ = eventually(timeout: .seconds(2)) { stdoutText.finished && stderrText.finished }
    return process.withLock { $0.terminationStatus }
  }
}
