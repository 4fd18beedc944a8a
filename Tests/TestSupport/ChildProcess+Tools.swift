import Foundation
import Glibc
import XCTest

/// System tools run as peers (`openssl s_client`, `openssl s_server`, `python3`): started from
/// the system's own directories, with stdin from a pipe and a fixed environment.
extension ChildProcess {
  /// Starts the system's `tool` with `arguments`, a pipe as its standard input, and only `PATH`
  /// and `LC_ALL` in its environment (a test's own environment changes under it).
  public convenience init(tool: String, _ arguments: [String]) throws {
    try self.init(
      executable: URL(fileURLWithPath: try Self.path(of: tool)), arguments,
      completeEnvironment: ["PATH": "/usr/bin:/bin", "LC_ALL": "C.UTF-8"], withInput: true)
  }

  /// Whether `tool` is installed (for ``RequiredTool``).
  public static func isInstalled(_ tool: String) -> Bool { (try? path(of: tool)) != nil }

  /// The system's copy of `tool` (not a pyenv shim, which needs an environment of its own).
  public static func path(of tool: String) throws -> String {
    for directory in ["/usr/bin", "/usr/local/bin", "/bin", "/usr/sbin"] {
      let path = "\(directory)/\(tool)"
      if FileManager.default.isExecutableFile(atPath: path) { return path }
    }
    throw RequiredTool.missing(tool)
  }

  /// Waits until `condition` holds, up to `timeout`; returns whether it did.
  @discardableResult
  public func wait(
    for timeout: Duration = .seconds(10), until condition: (ChildProcess) -> Bool
  ) -> Bool {
    eventually(timeout: timeout) { condition(self) }
  }

  /// Waits for the process to exit, up to `timeout`, and returns its status; kills it and
  /// fails the test if it does not.
  @discardableResult
  public func exitStatus(within timeout: Duration = .seconds(10)) -> Int32? {
    if let status = waitForExit(timeout: timeout) { return status }
    XCTFail("\(name) still running: \(stderr)")
    signal(SIGKILL)
    return nil
  }
}
