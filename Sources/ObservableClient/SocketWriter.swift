import Deflate
import Glibc

/// Writes request lines to the connection's socket, deflating them once compression is on.
///
/// Used only inside the client's write lock, which keeps the order of lines on the wire the
/// order of the replies the client waits for, and keeps zlib's state to one thread at a time.
final class SocketWriter: @unchecked Sendable {
  // Unchecked: before the connection is installed only the connection thread uses it (for the
  // handshake); from then on every use is inside `ClientCore.writer`'s lock.
  let fd: Int32
  private let wake: WakePipe
  private var deflater: DeflateCompressor?
  private let tls: TLSSocket?
  private(set) var failed = false

  /// How long one line may wait for room in the socket before the connection counts as dead.
  static let stallLimit = Duration.seconds(10)

  /// Writes to `fd`, through `tls` when it is given; `wake` ends a wait for room when the
  /// client closes.
  init(fd: Int32, wake: WakePipe, tls: TLSSocket? = nil) {
    self.fd = fd
    self.wake = wake
    self.tls = tls
  }

  /// Deflates every later line.
  func startDeflating(_ stream: DeflateCompressor) {
    deflater = stream
  }

  /// Sends `line` (which must end in `\n`). On failure the socket is shut down, so the reader
  /// thread sees the end and reconnects; every later call then does nothing.
  @discardableResult
  func send(_ line: [UInt8]) -> Bool {
    guard !failed else { return false }
    var bytes = line
    if let deflater {
      // Each line ends in a sync flush, so the server can act on it at once.
      bytes = []
      line.withUnsafeBytes { deflater.compress($0, appendingTo: &bytes) }
    }
    if let tls {
      if tls.send(bytes) { return true }
      shutDown()
      return false
    }
    var offset = 0
    let deadline = ContinuousClock.now + Self.stallLimit
    while offset < bytes.count {
      let sent = bytes[offset...].withUnsafeBytes {
        Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
      }
      if sent > 0 {
        offset += sent
        continue
      }
      if sent < 0, errno == EINTR { continue }
      if sent < 0, errno == EAGAIN || errno == EWOULDBLOCK,
        PollWait.wait(fd: fd, events: Int16(POLLOUT), until: deadline, wake: wake) == .ready
      {
        continue
      }
      shutDown()
      return false
    }
    return true
  }

  /// Shuts the socket down in both directions: the connection thread sees the end and
  /// reconnects. Also how tests cut a connection without stopping the server.
  func shutDown() {
    failed = true
    shutdown(fd, Int32(SHUT_RDWR))
  }
}
