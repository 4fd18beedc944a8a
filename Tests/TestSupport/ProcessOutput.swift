import Foundation
import Locking

/// What a child process writes to one pipe, appended from the pipe's reading thread, so that
/// the child never blocks on a full pipe and the test can look at the output at any time.
final class ProcessOutput: Sendable {
  /// Starts collecting what arrives on `pipe`.
  init(reading pipe: Pipe) {
    // The handler holds this collector until the pipe ends, and then lets it go.
    pipe.fileHandleForReading.readabilityHandler = { [self] handle in
      let chunk = handle.availableData
      if chunk.isEmpty {
        handle.readabilityHandler = nil
        ended.withLock { $0 = true }
      } else {
        data.withLock { $0.append(chunk) }
      }
    }
  }

  /// Whether the pipe has ended: every process holding its write end has closed it.
  var finished: Bool { ended.withLock { $0 } }

  /// Everything received so far, as text.
  var text: String { data.withLock { String(decoding: $0, as: UTF8.self) } }

  private let data = Locked(Data())
  private let ended = Locked(false)
}
