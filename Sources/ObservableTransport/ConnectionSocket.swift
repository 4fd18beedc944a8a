import CLinux
import Glibc
import ObservablePOSIX

/// The calls a connection makes on its socket besides reading and writing: what its loop
/// watches (input until the connection stops reading, room to write while bytes wait), the
/// half-close, input read only to be discarded, a last send that does not wait, the close.
/// An immutable value inside its connection, so a send reaches the descriptor with no extra
/// reference and no access check. Loop thread only, as its connection.
package struct ConnectionSocket {
  /// The socket.
  let descriptor: Int32

  /// Input events: data, and the client's end of stream (`EPOLLRDHUP`).
  private static let input = EPOLLIN.rawValue | EPOLLRDHUP.rawValue

  /// Hands the socket to `loop`, which reports its input to `handler`.
  func register(on loop: EventLoop, handler: any ReadinessHandler) throws(SystemError) {
    try loop.register(descriptor, events: Self.input, handler: handler)
  }

  /// Watches for input and, when `writable`, for room to write.
  func watch(writable: Bool, on loop: EventLoop) throws(SystemError) {
    try loop.modify(descriptor, events: Self.input | (writable ? EPOLLOUT.rawValue : 0))
  }

  /// Watches for room to write, and for input too unless the client closed its side, until
  /// the connection closes; failures are left to the writes to find.
  func watchWhileFinishing(readingInput: Bool, on loop: EventLoop) {
    try? loop.modify(descriptor, events: (readingInput ? Self.input : 0) | EPOLLOUT.rawValue)
  }

  /// Watches for room to write only: the client closed its side, and its end of stream would
  /// be reported at every turn.
  func watchWritableOnly(on loop: EventLoop) throws(SystemError) {
    try loop.modify(descriptor, events: EPOLLOUT.rawValue)
  }

  /// Sends a FIN after everything written, and watches for the client's input to its end.
  func halfClose(on loop: EventLoop) throws(SystemError) {
    _ = try blockingSyscall("shutdown") { Glibc.shutdown(descriptor, Int32(SHUT_WR)) }
    try loop.modify(descriptor, events: Self.input)
  }

  /// How reading and discarding the client's input ended.
  enum DiscardEnd {
    /// The socket holds no more input for now, or a turn's reads are spent.
    case drained
    /// The client closed its side.
    case endOfStream
    /// The read failed.
    case failed
  }

  /// Reads and discards what the client sent, at most 16 reads in one turn.
  func discardInput(into buffer: UnsafeMutableRawBufferPointer) -> DiscardEnd {
    for _ in 0..<16 {
      switch try? SocketCalls.read(descriptor, into: buffer) {
      case .done(let count) where count > 0: continue
      case .wouldBlock: return .drained
      case .done: return .endOfStream
      case .none: return .failed
      }
    }
    return .drained
  }

  /// Sends `bytes` at once if the socket takes them, before a close that does not wait.
  func sendNow(_ bytes: [UInt8]) {
    _ = bytes.withUnsafeBytes { try? SocketCalls.send(descriptor, $0) }
  }

  /// Sends as much of the bytes `pieces` point at, in order, as the socket takes, in one
  /// `sendmsg`, without raising `SIGPIPE`.
  func send(_ pieces: UnsafeMutableBufferPointer<iovec>) throws(SystemError) -> IOResult<Int> {
    var message = msghdr()
    message.msg_iov = pieces.baseAddress
    message.msg_iovlen = pieces.count
    return try syscall("sendmsg") { Glibc.sendmsg(descriptor, &message, Int32(MSG_NOSIGNAL)) }
  }

  /// Stops watching the socket and closes it.
  func close(on loop: EventLoop) {
    loop.deregister(descriptor)
    Glibc.close(descriptor)
  }
}
