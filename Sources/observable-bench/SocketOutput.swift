import Glibc

/// Bytes queued for a non-blocking socket, written as far as it takes them: what the load
/// client's connections share.
enum SocketOutput {
  /// Sends `output` from `offset` on `descriptor` until all of it is written (`true`, and
  /// `output` is emptied) or the socket is full (`false`, `offset` says how far it got).
  static func flush(
    _ descriptor: Int32, _ output: inout [UInt8], offset: inout Int
  ) throws(BenchError) -> Bool {
    while offset < output.count {
      let sent = output.withUnsafeBytes { bytes in
        send(
          descriptor, bytes.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL))
      }
      if sent >= 0 {
        offset += sent
        continue
      }
      switch errno {
      case EINTR: continue
      case EAGAIN, EWOULDBLOCK: return false
      case let code: throw .system(call: "send", code: code)
      }
    }
    output.removeAll(keepingCapacity: true)
    offset = 0
    return true
  }
}
