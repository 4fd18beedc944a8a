import Glibc
import ObservablePOSIX

/// Lines to stdout and stderr, each written at once (no buffer), so pipes see every line as it
/// happens and a reader of `observable sub` is never a buffer behind.
///
/// Written with `write(2)` rather than `FileHandle`, which is Foundation's: the command links
/// FoundationEssentials only, which starts faster and carries no ICU.
enum Terminal {
  /// One line on stdout.
  static func print(_ line: String) {
    write(line + "\n", to: STDOUT_FILENO)
  }

  /// One line on stderr.
  static func error(_ line: String) {
    write(line + "\n", to: STDERR_FILENO)
  }

  /// The value of the environment variable `name`, `nil` when it is not set.
  static func environment(_ name: String) -> String? {
    getenv(name).map { String(cString: $0) }
  }

  /// All of `text` to `descriptor`, resuming after a signal or a partial write; a closed pipe
  /// ends the attempt quietly (the command then ends on its own terms).
  private static func write(_ text: String, to descriptor: Int32) {
    var text = text
    text.withUTF8 { _ = BlockingWrite.write(UnsafeRawBufferPointer($0), to: descriptor) }
  }

}
