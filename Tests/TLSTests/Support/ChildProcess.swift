import Foundation
import TestSupport
import XCTest

/// A peer program (`openssl s_client`, `openssl s_server`, `python3`) run for one test: stdin
/// from a pipe the test writes to, stdout and stderr into files so that neither side blocks on
/// a full pipe, and killed and reaped when the test drops it, so nothing outlives the test.
final class ChildProcess {
  private let process = Process()
  private let input = Pipe()
  private let directory: URL
  private let outputFile: URL
  private let errorFile: URL

  /// Starts `executable` (looked up on `PATH`) with `arguments`.
  init(_ executable: String, _ arguments: [String]) throws {
    directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("tls-peer-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    outputFile = directory.appendingPathComponent("out")
    errorFile = directory.appendingPathComponent("err")
    try Data().write(to: outputFile)
    try Data().write(to: errorFile)
    process.executableURL = URL(fileURLWithPath: try Self.path(of: executable))
    process.arguments = arguments
    process.standardInput = input
    process.standardOutput = try FileHandle(forWritingTo: outputFile)
    process.standardError = try FileHandle(forWritingTo: errorFile)
    // An explicit environment: Process would otherwise copy this one's, which tests change.
    process.environment = ["PATH": "/usr/bin:/bin", "LC_ALL": "C.UTF-8"]
    try process.run()
  }

  deinit {
    if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    process.waitUntilExit()
    try? FileManager.default.removeItem(at: directory)
  }

  /// Whether `tool` is installed (for ``RequiredTool``).
  static func isInstalled(_ tool: String) -> Bool { (try? path(of: tool)) != nil }

  /// The system's copy of `tool` (not a pyenv shim, which needs an environment of its own).
  static func path(of tool: String) throws -> String {
    for directory in ["/usr/bin", "/usr/local/bin", "/bin"] {
      let path = "\(directory)/\(tool)"
      if FileManager.default.isExecutableFile(atPath: path) { return path }
    }
    throw RequiredTool.missing(tool)
  }

  /// Writes `text` to the child's stdin.
  func write(_ text: String) {
    try? input.fileHandleForWriting.write(contentsOf: Data(text.utf8))
  }

  /// Closes the child's stdin: end of input.
  func closeInput() { try? input.fileHandleForWriting.close() }

  /// What the child wrote to stdout so far.
  var output: String { (try? String(contentsOf: outputFile, encoding: .utf8)) ?? "" }
  /// What the child wrote to stderr so far.
  var errors: String { (try? String(contentsOf: errorFile, encoding: .utf8)) ?? "" }

  /// Waits until `condition` holds, up to `timeout`; returns whether it did.
  @discardableResult
  func wait(for timeout: Duration = .seconds(10), until condition: (ChildProcess) -> Bool) -> Bool {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
      if condition(self) { return true }
      usleep(10_000)
    }
    return condition(self)
  }

  /// Waits for the child to exit, up to `timeout`, and returns its status; kills it and fails
  /// the test if it does not.
  @discardableResult
  func exitStatus(within timeout: Duration = .seconds(10)) -> Int32? {
    guard wait(for: timeout, until: { !$0.process.isRunning }) else {
      XCTFail("\(process.executableURL?.lastPathComponent ?? "child") still running: \(errors)")
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
      return nil
    }
    process.waitUntilExit()
    return process.terminationStatus
  }
}
