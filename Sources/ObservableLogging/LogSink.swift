import Glibc
import Locking
import ObservablePOSIX

/// Where finished log lines go: a file descriptor, each line in one `write` under a lock, so
/// lines from several threads never interleave.
///
/// A line up to `PIPE_BUF` bytes also stays whole beside other processes writing to the same
/// pipe (the journal's stream, a shell's `2>&1`).
public final class LogSink: Sendable {
  private let descriptor: Int32
  private let lock = Locked(())

  /// Writes to `descriptor`, which the caller keeps open for the sink's life.
  public init(descriptor: Int32) {
    self.descriptor = descriptor
  }

  /// Standard error.
  public static let standardError = LogSink(descriptor: STDERR_FILENO)

  /// Writes `line` whole. Failures are dropped: a logger has nowhere to report them, and a
  /// full or closed stderr must not stop the server.
  public func write(_ line: String) {
    let bytes = Array(line.utf8)
    lock.withLock { _ in
      bytes.withUnsafeBytes { _ = BlockingWrite.write($0, to: descriptor) }
    }
  }

}
