import Foundation

/// Runs `Scripts/deflate_peer.py`, an independent implementation of the other end of a
/// compressed connection (Python's zlib), as a real subprocess.
///
/// Input and output go through temporary files instead of pipes, so neither side can block
/// on a full pipe; the only thing to wait for is the exit, which is bounded by a timeout
/// after which the process is killed and reaped, so nothing is left running.
struct PythonDeflatePeer {
  /// What the script does with each frame; see the script's documentation.
  enum Mode: String {
    case inflate
    case deflate
  }

  struct Failure: Error, CustomStringConvertible {
    let description: String
  }

  static let script = TestScripts.url("deflate_peer.py")

  /// The system interpreter, not whatever shim `PATH` offers, so the peer is predictable.
  static let interpreter = ["/usr/bin/python3", "/usr/local/bin/python3"]
    .first { FileManager.default.isExecutableFile(atPath: $0) }

  /// Sends `frames` to the script in `mode` and returns its output frames.
  static func run(
    _ mode: Mode, frames: [[UInt8]], timeout: Duration = .seconds(60)
  ) async throws -> [[UInt8]] {
    guard let interpreter else { throw Failure(description: "python3 not found") }
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("deflate-peer-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let inputURL = directory.appendingPathComponent("in")
    let outputURL = directory.appendingPathComponent("out")
    let errorURL = directory.appendingPathComponent("err")
    try Data(encode(frames)).write(to: inputURL)
    try Data().write(to: outputURL)
    try Data().write(to: errorURL)
    let input = try FileHandle(forReadingFrom: inputURL)
    let output = try FileHandle(forWritingTo: outputURL)
    let errors = try FileHandle(forWritingTo: errorURL)
    defer {
      try? input.close()
      try? output.close()
      try? errors.close()
    }

    let process = Process()
    process.executableURL = URL(fileURLWithPath: interpreter)
    process.arguments = [script.path, mode.rawValue]
    // An explicit environment keeps Process from reading this process's environment, which
    // other tests may be changing at the same moment.
    process.environment = ["PATH": "/usr/bin:/bin", "LC_ALL": "C.UTF-8"]
    process.standardInput = input
    process.standardOutput = output
    process.standardError = errors
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
      throw Failure(description: "deflate_peer.py \(mode) did not finish within \(timeout)")
    }
    let diagnostics = String(decoding: try Data(contentsOf: errorURL), as: UTF8.self)
    guard status == 0 else {
      throw Failure(description: "deflate_peer.py \(mode) exited \(status): \(diagnostics)")
    }
    return try decode(Array(try Data(contentsOf: outputURL)))
  }

  /// Length-prefixes each frame (4 bytes, big-endian), the script's framing.
  static func encode(_ frames: [[UInt8]]) -> [UInt8] {
    var bytes: [UInt8] = []
    for frame in frames {
      let length = UInt32(frame.count)
      bytes += [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: length >> $0) }
      bytes += frame
    }
    return bytes
  }

  static func decode(_ bytes: [UInt8]) throws -> [[UInt8]] {
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
