import Foundation
import Glibc
import TestSupport

/// `Scripts/compressed_client.py` running as a subprocess. Its output goes to temporary
/// files, so it never blocks on a pipe; waits are bounded, and the process is killed when
/// the value goes away, so nothing is left running after a failed test.
final class CompressedClientScript: @unchecked Sendable {
  // Unchecked: used by one test thread; Process is only asked whether it runs, and killed.
  struct Failure: Error, CustomStringConvertible {
    let description: String
  }

  static let script = TestScripts.url("compressed_client.py")

  /// Starts `scenario` against 127.0.0.1:`port`; the script gives up after `timeout` seconds.
  init(_ scenario: String, port: UInt16, options: [String] = [], timeout: Int = 30) throws {
    guard let interpreter = PythonDeflatePeer.interpreter else {
      throw Failure(description: "python3 not found")
    }
    self.timeout = .seconds(timeout + 10)
    directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("compressed-client-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let outputURL = directory.appendingPathComponent("out")
    let errorURL = directory.appendingPathComponent("err")
    try Data().write(to: outputURL)
    try Data().write(to: errorURL)
    process.executableURL = URL(fileURLWithPath: interpreter)
    process.arguments =
      [Self.script.path, scenario, "--port", String(port), "--timeout", String(timeout)] + options
    // Explicit, so Process does not read an environment other tests may be changing.
    process.environment = ["PATH": "/usr/bin:/bin", "LC_ALL": "C.UTF-8"]
    process.standardInput = FileHandle.nullDevice
    process.standardOutput = try FileHandle(forWritingTo: outputURL)
    process.standardError = try FileHandle(forWritingTo: errorURL)
    try process.run()
  }

  deinit {
    if process.isRunning {
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
    }
    try? FileManager.default.removeItem(at: directory)
  }

  var isRunning: Bool { process.isRunning }

  /// What the script wrote so far, for failure messages.
  var diagnostics: String {
    ["out", "err"].map { name in
      let data = (try? Data(contentsOf: directory.appendingPathComponent(name))) ?? Data()
      return "\(name): " + String(decoding: data, as: UTF8.self)
    }.joined(separator: "\n")
  }

  /// Waits for the script to exit and returns its JSON summary; throws when it fails, reports
  /// an error, or outlives its time (it is then killed).
  func result() throws -> [String: Any] {
    guard eventually(timeout: timeout, { !process.isRunning }) else {
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
      throw Failure(description: "compressed_client.py did not finish in time\n\(diagnostics)")
    }
    process.waitUntilExit()
    let output = try Data(contentsOf: directory.appendingPathComponent("out"))
    let object = try? JSONSerialization.jsonObject(with: output) as? [String: Any]
    guard process.terminationStatus == 0, let object, object["error"] == nil else {
      throw Failure(
        description: "compressed_client.py exited \(process.terminationStatus)\n\(diagnostics)")
    }
    return object
  }

  private let process = Process()
  private let directory: URL
  private let timeout: Duration
}
