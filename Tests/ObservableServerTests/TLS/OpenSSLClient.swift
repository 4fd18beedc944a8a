import Foundation
import Glibc
import TestSupport

/// `openssl s_client` connected to a TLS port, trusting the test authority and checking the
/// name `localhost`: stdin from a pipe the test writes to, stdout and stderr into one file so
/// that it never blocks, killed and reaped when the test drops it.
final class OpenSSLClient {
  private let process = Process()
  private let input = Pipe()
  private let directory: URL
  private let outputFile: URL

  /// Starts `s_client` to 127.0.0.1:`port` with `extra` arguments; `quiet` prints data only
  /// and sends stdin as it is, otherwise s_client also takes commands (`R` renegotiates).
  init(
    port: UInt16, certificates: TestCertificates, quiet: Bool = true, extra: [String] = []
  ) throws {
    guard let openssl = TestCertificates.openssl else { throw RequiredTool.missing("openssl") }
    directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("s-client-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    outputFile = directory.appendingPathComponent("out")
    _ = FileManager.default.createFile(atPath: outputFile.path, contents: nil)
    let output = try FileHandle(forWritingTo: outputFile)
    defer { try? output.close() }
    process.executableURL = URL(fileURLWithPath: openssl)
    process.arguments =
      [
        "s_client", "-connect", "127.0.0.1:\(port)", "-CAfile", certificates.path("ca.pem"),
        "-verify_return_error", "-verify_hostname", "localhost", "-servername", "localhost",
      ] + (quiet ? ["-quiet"] : []) + extra
    process.standardInput = input
    process.standardOutput = output
    process.standardError = output
    process.environment = ["PATH": "/usr/bin:/bin", "LC_ALL": "C.UTF-8"]
    try process.run()
  }

  deinit {
    if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    process.waitUntilExit()
    try? FileManager.default.removeItem(at: directory)
  }

  /// Everything s_client printed so far.
  var output: String { (try? String(contentsOf: outputFile, encoding: .utf8)) ?? "" }

  /// Writes `text` to s_client's stdin, which sends it.
  func write(_ text: String) {
    try? input.fileHandleForWriting.write(contentsOf: Data(text.utf8))
  }

  /// Whether s_client printed `text` within `timeout`.
  func waitForOutput(_ text: String, timeout: Duration = .seconds(10)) -> Bool {
    eventually(timeout: timeout) { output.contains(text) }
  }

  /// Whether s_client exited within `timeout`.
  func waitForExit(timeout: Duration = .seconds(10)) -> Bool {
    eventually(timeout: timeout) { !process.isRunning }
  }
}
