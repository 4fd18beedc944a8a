import Dispatch
import Glibc

/// Reads an exec process's stdout and stderr on the source's queue and splits them into lines.
final class ExecOutput: @unchecked Sendable {
  // Unchecked: after `init`, every member is used on `queue` only.

  init(
    process: ExecProcess,
    queue: DispatchQueue,
    maxLineBytes: Int,
    onLine: @escaping @Sendable (UnsafeRawBufferPointer) -> Void,
    onErrorLine: @escaping @Sendable (String) -> Void,
    onEnd: @escaping @Sendable () -> Void
  ) {
    self.queue = queue
    self.onLine = onLine
    self.onErrorLine = onErrorLine
    self.onEnd = onEnd
    outputFramer = LineFramer(maxLineBytes: maxLineBytes)
    errorFramer = LineFramer(maxLineBytes: 4096)
    outputSource = DispatchSource.makeReadSource(fileDescriptor: process.stdout, queue: queue)
    errorSource = DispatchSource.makeReadSource(fileDescriptor: process.stderr, queue: queue)
    let stdout = process.stdout
    let stderr = process.stderr
    outputSource.setCancelHandler { Glibc.close(stdout) }
    errorSource.setCancelHandler { Glibc.close(stderr) }
    outputSource.setEventHandler { [unowned self] in drain(stdout, isOutput: true) }
    errorSource.setEventHandler { [unowned self] in drain(stderr, isOutput: false) }
  }

  /// Starts reading.
  func resume() {
    outputSource.activate()
    errorSource.activate()
  }

  /// Stops reading and closes both pipes. Idempotent.
  func cancel() {
    guard !cancelled else { return }
    cancelled = true
    outputSource.cancel()
    errorSource.cancel()
  }

  private func drain(_ descriptor: Int32, isOutput: Bool) {
    guard !cancelled else { return }
    let count = Glibc.read(descriptor, buffer.baseAddress, buffer.count)
    if count < 0 {
      if errno == EAGAIN || errno == EINTR { return }
    }
    guard count > 0 else {
      if isOutput {
        cancel()
        onEnd()
      } else {
        errorSource.cancel()
      }
      return
    }
    let bytes = UnsafeRawBufferPointer(rebasing: buffer[0..<count])
    if isOutput {
      _ = outputFramer.feed(bytes) { event in
        if case .line(let line) = event { onLine(line) } else { onErrorLine("(stdout line too long, skipped)") }
        return true
      }
    } else {
      _ = errorFramer.feed(bytes) { event in
        if case .line(let line) = event { onErrorLine(String(decoding: line, as: UTF8.self)) }
        return true
      }
    }
  }

  deinit {
    buffer.deallocate()
  }

  private let queue: DispatchQueue
  private let onLine: @Sendable (UnsafeRawBufferPointer) -> Void
  private let onErrorLine: @Sendable (String) -> Void
  private let onEnd: @Sendable () -> Void
  private let outputSource: DispatchSourceRead
  private let errorSource: DispatchSourceRead
  private var outputFramer: LineFramer
  private var errorFramer: LineFramer
  private var cancelled = false
  private let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 8)
}
