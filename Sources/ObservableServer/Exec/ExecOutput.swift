import Foundation
import Glibc
import Locking

/// Reads an exec process's stdout and stderr on a thread of its own and splits them into lines.
///
/// A plain thread with `poll` sees every byte and the end of the output however quickly a
/// short-lived command writes and exits; it checks for cancellation at least every 100 ms.
final class ExecOutput: Sendable {
  init(
    process: ExecProcess,
    maxLineBytes: Int,
    onLine: @escaping @Sendable (UnsafeRawBufferPointer) -> Void,
    onErrorLine: @escaping @Sendable (String) -> Void,
    onEnd: @escaping @Sendable () -> Void
  ) {
    self.process = process
    self.maxLineBytes = maxLineBytes
    self.onLine = onLine
    self.onErrorLine = onErrorLine
    self.onEnd = onEnd
  }

  /// Starts reading.
  func start() {
    let thread = Thread { [self] in run() }
    thread.name = "observable-server-exec-\(process.pid)"
    thread.start()
  }

  /// Stops reading; the thread closes both pipes. `onEnd` is not called after this.
  func cancel() {
    cancelled.withLock { $0 = true }
  }

  private func run() {
    let outputFramer = LineFramer(maxLineBytes: maxLineBytes)
    let errorFramer = LineFramer(maxLineBytes: 4096)
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 8)
    defer {
      buffer.deallocate()
      close(process.stdout)
      close(process.stderr)
    }
    var watched = [
      pollfd(fd: process.stdout, events: Int16(POLLIN), revents: 0),
      pollfd(fd: process.stderr, events: Int16(POLLIN), revents: 0),
    ]
    while !cancelled.withLock({ $0 }) {
      guard poll(&watched, nfds_t(watched.count), 100) > 0 else { continue }
      for index in watched.indices where watched[index].fd >= 0 && watched[index].revents != 0 {
        let count = read(watched[index].fd, buffer.baseAddress, buffer.count)
        if count < 0, errno == EAGAIN || errno == EINTR { continue }
        guard count > 0 else {
          // A negative descriptor is skipped by poll: this pipe has ended.
          watched[index].fd = -1
          continue
        }
        let bytes = UnsafeRawBufferPointer(rebasing: buffer[0..<count])
        if index == 0 {
          _ = outputFramer.feed(bytes) { event in
            switch event {
            case .line(let line): onLine(line)
            case .tooLong: onErrorLine("(a stdout line over \(maxLineBytes) bytes was skipped)")
            }
            return true
          }
        } else {
          _ = errorFramer.feed(bytes) { event in
            if case .line(let line) = event { onErrorLine(String(decoding: line, as: UTF8.self)) }
            return true
          }
        }
      }
      if watched[0].fd < 0 {
        if !cancelled.withLock({ $0 }) { onEnd() }
        return
      }
    }
  }

  private let process: ExecProcess
  private let maxLineBytes: Int
  private let onLine: @Sendable (UnsafeRawBufferPointer) -> Void
  private let onErrorLine: @Sendable (String) -> Void
  private let onEnd: @Sendable () -> Void
  private let cancelled = Locked(false)
}
