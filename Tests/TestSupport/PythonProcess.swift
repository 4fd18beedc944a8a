import Foundation

/// Runs the system Python as an independent peer: input and output through temporary
/// files, so neither side can block on a full pipe, and a deadline after which the process
/// is killed and reaped, so nothing outlives the test.
public enum PythonProcess {
  /// Python could not be run or failed.
  public struct Failure: Error, CustomStringConvertible {
    /// What happened, with Python's stderr.
    public let description: String
  }

  /// The system interpreter, not a shim on `PATH`, so the peer is predictable.
  public static let interpreter = ["/usr/bin/python3", "/usr/local/bin/python3"]
    .first { FileManager.default.isExecutableFile(atPath: $0) }

  /// A Python that can import `module`, resolved to its real executable (pyenv's shims
  /// need an environment the tests do not pass on); nil when there is none.
  public static func interpreter(importing module: String) async -> String? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    let candidates = ["/usr/bin/python3"] + path.split(separator: ":").map { "\($0)/python3" }
    for candidate in candidates where FileManager.default.isExecutableFile(atPath: candidate) {
      let probe = "import sys, \(module); print(sys.executable)"
      guard
        let output = try? await run(
          arguments: ["-c", probe], input: [], interpreter: candidate,
          environment: ProcessInfo.processInfo.environment, timeout: .seconds(30))
      else { continue }
      let executable = String(decoding: output, as: UTF8.self)
        .trimmingCharacters(in: .whitespacesAndNewlines)
      if FileManager.default.isExecutableFile(atPath: executable) { return executable }
    }
    return nil
  }

  /// Runs `python3 arguments...` with `input` on stdin and returns its stdout.
  public static func run(
    arguments: [String], input: [UInt8], interpreter chosen: String? = nil,
    environment: [String: String] = ["PATH": "/usr/bin:/bin", "LC_ALL": "C.UTF-8"],
    timeout: Duration = .seconds(60)
  ) async throws -> [UInt8] {
    guard let interpreter = chosen ?? interpreter else {
      throw Failure(description: "python3 not found")
    }
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("websocket-peer-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let urls = ["in", "out", "err"].map { directory.appendingPathComponent($0) }
    try Data(input).write(to: urls[0])
    try Data().write(to: urls[1])
    try Data().write(to: urls[2])
    let stdin = try FileHandle(forReadingFrom: urls[0])
    let stdout = try FileHandle(forWritingTo: urls[1])
    let stderr = try FileHandle(forWritingTo: urls[2])
    defer {
      try? stdin.close()
      try? stdout.close()
      try? stderr.close()
    }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: interpreter)
    process.arguments = arguments
    // An explicit environment: Process would otherwise read this process's, which other
    // tests may change concurrently.
    process.environment = environment
    process.standardInput = stdin
    process.standardOutput = stdout
    process.standardError = stderr
    let (exits, exited) = AsyncStream<Int32>.makeStream()
    process.terminationHandler = { finished in
      exited.yield(finished.terminationStatus)
      exited.finish()
    }
    try process.run()
    let status = await withTaskGroup(of: Int32?.self) { group in
      group.addTask {
        for await status in exits { return status }
        return nil
      }
      group.addTask {
        try? await Task.sleep(for: timeout)
        return nil
      }
      let first = await group.next() ?? nil
      group.cancelAll()
      return first
    }
    guard let status else {
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
      throw Failure(description: "python3 did not finish within \(timeout)")
    }
    guard status == 0 else {
      let diagnostics = String(decoding: try Data(contentsOf: urls[2]), as: UTF8.self)
      throw Failure(description: "python3 exited \(status): \(diagnostics)")
    }
    return Array(try Data(contentsOf: urls[1]))
  }

  /// Length-prefixes each frame (4 bytes, big-endian), the scripts' framing.
  public static func encode(_ frames: [[UInt8]]) -> [UInt8] {
    frames.flatMap { frame in
      [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: UInt32(frame.count) >> $0) } + frame
    }
  }

  /// Splits length-prefixed frames.
  public static func decode(_ bytes: [UInt8]) throws -> [[UInt8]] {
    var frames: [[UInt8]] = []
    var offset = 0
    while offset < bytes.count {
      guard offset + 4 <= bytes.count else { throw Failure(description: "truncated header") }
      let length = bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
      offset += 4
      guard offset + length <= bytes.count else { throw Failure(description: "truncated frame") }
      frames.append(Array(bytes[offset..<offset + length]))
      offset += length
    }
    return frames
  }
}
