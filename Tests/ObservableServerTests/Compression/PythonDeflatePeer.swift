import Foundation
import TestSupport

/// Runs `Scripts/deflate_peer.py`, an independent implementation of the other end of a
/// compressed connection (Python's zlib), as a real subprocess through ``PythonProcess``, which
/// bounds it in time and leaves nothing running.
struct PythonDeflatePeer {
  /// What the script does with each frame; see the script's documentation.
  enum Mode: String {
    case inflate
    case deflate
  }

  static let script = TestScripts.url("deflate_peer.py")

  /// The system interpreter, not whatever shim `PATH` offers, so the peer is predictable.
  static let interpreter = PythonProcess.interpreter

  /// Sends `frames` to the script in `mode` and returns its output frames.
  static func run(
    _ mode: Mode, frames: [[UInt8]], timeout: Duration = .seconds(60)
  ) async throws -> [[UInt8]] {
    let output = try await PythonProcess.run(
      arguments: [script.path, mode.rawValue], input: PythonProcess.encode(frames),
      timeout: timeout)
    return try PythonProcess.decode(output)
  }
}
