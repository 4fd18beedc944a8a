import CLinux
import Glibc
import ObservableFraming
import ObservablePOSIX

/// One of an exec process's output pipes, read on the event loop and split into lines.
///
/// The pipe is non-blocking and registered with the loop, so a stream costs no thread of its
/// own. Reads go into the loop's shared buffer and lines are handed out in place; only a line
/// split across reads is gathered, up to the framer's limit.
final class ExecOutput: ReadinessHandler {
  /// Wraps the read end `fd`, which this object closes; `onEvent` gets each line (or
  /// `.tooLong`), `onEnd` the end of the output. Both are called on the loop thread.
  init(
    fd: Int32, loop: EventLoop, maxLineBytes: Int,
    onEvent: @escaping (LineFramer.Event) -> Void, onEnd: @escaping () -> Void
  ) {
    self.fd = fd
    self.loop = loop
    framer = LineFramer(maxLineBytes: maxLineBytes)
    self.onEvent = onEvent
    self.onEnd = onEnd
  }

  deinit {
    if fd >= 0 { Glibc.close(fd) }
  }

  /// Starts reading as the loop reports data. Loop thread only.
  func open() throws(SystemError) {
    try loop.register(fd, events: EPOLLIN.rawValue, handler: self)
    registered = true
  }

  /// Reads what is there now, for the last lines of a process that has exited; stops at the end
  /// of the output or when nothing more is buffered. Loop thread only.
  func drain() {
    // A grandchild that left the process group may still hold the pipe and keep writing: a
    // bound keeps it from holding the loop.
    _ = read(upTo: 64)
  }

  /// Stops reading and closes the pipe; lines not yet read are dropped. Loop thread only.
  func close() {
    guard fd >= 0 else { return }
    if registered { loop.deregister(fd) }
    registered = false
    Glibc.close(fd)
    fd = -1
  }

  /// Called by the loop when the descriptor is readable or has hung up.
  func descriptorReady(_ events: UInt32) {
    // A few reads per turn keep one chatty command from starving the loop's connections; the
    // descriptor stays ready, so the loop comes back to it.
    guard !read(upTo: 4) else { return }
    close()
    onEnd()
  }

  /// Reads at most `reads` times; returns `false` once the output has ended.
  private func read(upTo reads: Int) -> Bool {
    let buffer = loop.readBuffer
    for _ in 0..<reads {
      guard fd >= 0 else { return false }
      let outcome: IOResult<Int>
      do {
        outcome = try syscall("read(exec pipe)") {
          Glibc.read(fd, buffer.baseAddress, buffer.count)
        }
      } catch {
        return false
      }
      guard case .done(let count) = outcome else { return true }
      guard count > 0 else { return false }
      _ = framer.feed(UnsafeRawBufferPointer(rebasing: buffer[0..<count])) { event in
        onEvent(event)
        return true
      }
    }
    return true
  }

  private var fd: Int32
  private var registered = false
  private let loop: EventLoop
  private let framer: LineFramer
  private let onEvent: (LineFramer.Event) -> Void
  private let onEnd: () -> Void
}
