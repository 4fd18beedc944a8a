import Foundation
import Glibc

/// Runs one of the Python scripts in `Scripts` as a real subprocess, with input from a file and
/// output to files (so neither side can block on a full pipe), killed and reaped if it does not
/// finish in time.
struct PythonScript {
  struct Failure: Error, CustomStringConvertible {
    let description: String
  }

  /// The script's file name in `Scripts`.
  let name: String

  /// The first `python3` (on `PATH`, then the system's) that can import `module`: packages
  /// such as `prometheus_client` may be installed for one interpreter and not another.
  static func interpreter(importing module: String?) -> String? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
    let candidates = path.split(separator: ":").map { "\($0)/python3" } + ["/usr/bin/python3"]
    for candidate in candidates where FileManager.default.isExecutableFile(atPath: candidate) {
      guard let module else { return candidate }
      let probe = Process()
      probe.executableURL = URL(fileURLWithPath: candidate)
      probe.arguments = ["-c", "import \(module)"]
      probe.standardOutput = FileHandle.nullDevice
      probe.standardError = FileHandle.nullDevice
      guard (try? probe.run()) != nil else { continue }
      probe.waitUntilExit()
      if probe.terminationStatus == 0 { return candidate }
    }
    return nil
  }

  /// Runs the script with `arguments` and `input` on standard input; returns standard output.
  /// Throws when it exits non-zero and not in `allowing` (with its standard error), or
  /// outlives `timeout`. A `launcher` (such as `ip netns exec NAME`) runs the interpreter; it
  /// must exec it, so that the process killed on a timeout is the script's.
  func run(
    _ arguments: [String] = [], input: Data = Data(), importing module: String? = nil,
    timeout: Duration = .seconds(30), allowing statuses: Set<Int32> = [],
    launcher: [String] = []
  ) throws -> Data {
    guard let interpreter = Self.interpreter(importing: module) else {
      throw Failure(description: "no python3 that can import \(module ?? "anything")")
    }
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("python-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let urls = ["in", "out", "err"].map { directory.appendingPathComponent($0) }
    try input.write(to: urls[0])
    try Data().write(to: urls[1])
    try Data().write(to: urls[2])
    let handles = [
      try FileHandle(forReadingFrom: urls[0]), try FileHandle(forWritingTo: urls[1]),
      try FileHandle(forWritingTo: urls[2]),
    ]
    defer { for handle in handles { try? handle.close() } }

    let process = Process()
    let command = launcher + [interpreter, TestScripts.url(name).path] + arguments
    process.executableURL = URL(fileURLWithPath: command[0])
    process.arguments = Array(command.dropFirst())
    process.environment = [
      "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
      "LC_ALL": "C.UTF-8",
    ]
    process.standardInput = handles[0]
    process.standardOutput = handles[1]
    process.standardError = handles[2]
    try process.run()
    let deadline = ContinuousClock.now + timeout
    while process.isRunning && ContinuousClock.now < deadline {
      usleep(5_000)
    }
    if process.isRunning {
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
      throw Failure(description: "\(name) did not finish within \(timeout)")
    }
    process.waitUntilExit()
    guard process.terminationStatus == 0 || statuses.contains(process.terminationStatus) else {
      let errors = String(decoding: (try? Data(contentsOf: urls[2])) ?? Data(), as: UTF8.self)
      throw Failure(description: "\(name) exited \(process.terminationStatus): \(errors)")
    }
    return try Data(contentsOf: urls[1])
  }
}
