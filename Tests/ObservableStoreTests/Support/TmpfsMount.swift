import Foundation
import Glibc
import TestSupport
import XCTest

/// A small tmpfs the test mounts (it needs root) and unmounts, for a full or read-only disk.
///
/// Outside CI, without root, the test is skipped with the reason; under CI a mount that fails
/// fails the test (``RequiredTool``), so that a runner that cannot mount cannot hide it.
final class TmpfsMount {
  /// Where it is mounted.
  let path: String
  private var mounted = true

  /// Mounts a tmpfs of `size` (as `mount -o size=` takes it, `4m`) at a new directory
  /// inside `parent`.
  init(size: String, in parent: String) throws {
    path = parent + "/tmpfs"
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    guard geteuid() == 0 || RequiredTool.isCI() else {
      throw XCTSkip("mounting a tmpfs needs root; run the tests as root to cover a full disk")
    }
    let status = try Self.run(
      "/usr/bin/mount", ["-t", "tmpfs", "-o", "size=\(size)", "tmpfs", path])
    guard status == 0 else {
      mounted = false
      throw RequiredTool.missing("mount -t tmpfs (status \(status))")
    }
  }

  deinit {
    unmount()
  }

  /// Makes the file system read-only, even to root.
  func remountReadOnly() throws {
    XCTAssertEqual(try Self.run("/usr/bin/mount", ["-o", "remount,ro", path]), 0)
  }

  /// Unmounts it; lazily when something still holds it, so that nothing is left behind.
  func unmount() {
    guard mounted else { return }
    mounted = false
    if (try? Self.run("/usr/bin/umount", [path])) != 0 {
      _ = try? Self.run("/usr/bin/umount", ["-l", path])
    }
  }

  /// Runs `tool` with `arguments` to its end, up to 10 s; its exit status.
  private static func run(_ tool: String, _ arguments: [String]) throws -> Int32 {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: tool)
    process.arguments = arguments
    try process.run()
    guard eventually(timeout: .seconds(10), { !process.isRunning }) else {
      process.terminate()
      return -1
    }
    return process.terminationStatus
  }
}
