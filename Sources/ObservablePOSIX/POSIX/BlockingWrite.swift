import Glibc

/// Writes all of a buffer to a blocking descriptor, resuming after a signal or a partial write:
/// the loop the log sink, the `observable` command's terminal, the benchmark's publishers and
/// the tests' line clients share.
///
/// Only for blocking descriptors: on a non-blocking one `EAGAIN` ends the attempt. The event
/// loops write through ``SocketCalls/send(_:_:)`` and their own queues instead.
package enum BlockingWrite {
  /// Writes all of `bytes` to `descriptor` with `write(2)`; `false` when it stopped early (a
  /// closed pipe, a full disk), which callers with nowhere to report it drop.
  @discardableResult
  package static func write(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32) -> Bool {
    guard let base = bytes.baseAddress else { return true }
    var offset = 0
    while offset < bytes.count {
      let written = Glibc.write(descriptor, base + offset, bytes.count - offset)
      if written > 0 {
        offset += written
      } else if written < 0 && errno == EINTR {
        continue
      } else {
        return false
      }
    }
    return true
  }

  /// Sends all of `bytes` on the socket `descriptor` with `send(2)`, without raising `SIGPIPE`.
  ///
  /// - Throws: the `errno` of the `send` that failed.
  package static func send(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32)
    throws(SystemError)
  {
    guard let base = bytes.baseAddress else { return }
    var offset = 0
    while offset < bytes.count {
      let sent = Glibc.send(descriptor, base + offset, bytes.count - offset, Int32(MSG_NOSIGNAL))
      if sent < 0 {
        if errno == EINTR { continue }
        throw SystemError(call: "send", code: errno)
      }
      offset += sent
    }
  }
}
