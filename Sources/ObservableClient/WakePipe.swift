import Glibc

/// A pipe that ends every wait of a client's connection thread once ``signal()`` is called.
///
/// Nothing ever reads it: once signalled it stays readable, which is what a closed client wants
/// (every later wait ends at once too).
final class WakePipe: Sendable {
  /// The end that waits watch.
  let readEnd: Int32
  private let writeEnd: Int32

  /// Opens the pipe; `nil` when the process is out of file descriptors.
  init?() {
    var ends: [Int32] = [0, 0]
    guard pipe(&ends) == 0 else { return nil }
    for end in ends {
      _ = fcntl(end, F_SETFD, FD_CLOEXEC)
      _ = fcntl(end, F_SETFL, O_NONBLOCK)
    }
    readEnd = ends[0]
    writeEnd = ends[1]
  }

  deinit {
    close(readEnd)
    close(writeEnd)
  }

  /// Makes the read end readable, for good.
  func signal() {
    var byte: UInt8 = 1
    _ = write(writeEnd, &byte, 1)
  }
}
