import Foundation
import Glibc

/// How the server's side of a connection ended, as a client that read to the end saw it.
public struct ConnectionEnding {
  /// Every byte received before the end.
  public var bytes: [UInt8]
  /// The error that ended reading (`ECONNRESET` for a reset), or `nil` for an orderly end of
  /// stream or a deadline.
  public var error: Int32?
  /// Whether the stream ended (cleanly or not) before the deadline.
  public var ended: Bool

  /// The bytes as text.
  public var text: String { String(decoding: bytes, as: UTF8.self) }

  /// Whether the server closed with a FIN after everything it wrote, not with a reset.
  public var isOrderly: Bool { ended && error == nil }
}

/// Reading a connection to its end, telling a FIN from a reset: a reset destroys what the client
/// had not read yet, so a reply followed by a reset is a reply lost.
extension LineClient {
  /// Waits, reading nothing, until the server hangs up its side (FIN or reset), up to `timeout`;
  /// returns whether it did. A reset that arrives before the client reads takes with it what
  /// was received, which is the case the tests of replies before a close must catch.
  public func waitForHangUp(timeout: Duration = .seconds(5)) -> Bool {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
      // POLLRDHUP (a FIN); POLLHUP and POLLERR (a reset) are always reported.
      var descriptor = pollfd(fd: fd, events: Int16(0x2000), revents: 0)
      let ready = poll(&descriptor, 1, 20)
      if ready > 0 { return true }
    }
    return false
  }

  /// Reads everything until the end of the stream, a reset or `timeout`.
  public func readToEnd(timeout: Duration = .seconds(5)) -> ConnectionEnding {
    let deadline = ContinuousClock.now + timeout
    var ending = ConnectionEnding(bytes: [], error: nil, ended: false)
    var chunk = [UInt8](repeating: 0, count: 65536)
    while ContinuousClock.now < deadline {
      var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
      guard poll(&descriptor, 1, 20) > 0 else { continue }
      let count = recv(fd, &chunk, chunk.count, 0)
      if count > 0 {
        ending.bytes += chunk[..<count]
      } else if count == 0 {
        ending.ended = true
        return ending
      } else if errno != EINTR, errno != EAGAIN {
        ending.error = errno
        ending.ended = true
        return ending
      }
    }
    return ending
  }
}

/// Bytes sent from a thread of their own, so that a test can read while the server has not yet
/// read what it was sent (a blocking send of more than the socket buffers hold would wait for
/// the server otherwise).
public final class BackgroundSend: Sendable {
  /// Starts sending `bytes` to `client`'s socket.
  public init(_ bytes: [UInt8], to client: LineClient) {
    self.client = client
    let done = done
    Thread {
      try? client.sendRaw(bytes)
      done.signal()
    }.start()
  }

  /// Ends the send (shutting the socket down wakes a blocked `send`) and waits for the thread,
  /// so that nothing the test started outlives it.
  public func stop() {
    shutdown(client.fd, Int32(SHUT_RDWR))
    _ = done.wait(timeout: .now() + 5)
  }

  private let client: LineClient
  private let done = DispatchSemaphore(value: 0)
}
