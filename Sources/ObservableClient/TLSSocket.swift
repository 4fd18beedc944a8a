import Glibc
import Locking
import TLS

/// A client TLS session over one connected, non-blocking socket, for blocking callers: the
/// connection thread reads through it and callers write through it at the same time.
///
/// The session is a byte transform (``TLSSession``); this type moves its ciphertext to and from
/// the socket. Two locks, always taken in this order: `sending` orders the records on the wire
/// (a record taken from the session must reach the socket before one taken after it), and
/// `sessionLock` guards OpenSSL's state, held only while it transforms bytes in memory. So the
/// reader never waits behind a writer stalled on a full socket, unless OpenSSL has something of
/// its own to send after a read (a key update, an alert).
final class TLSSocket: @unchecked Sendable {
  // Unchecked: `session` is used only inside `sessionLock` (see `withSession`).
  private let fd: Int32
  private let wake: WakePipe
  private let session: TLSSession
  private let sessionLock = Locked(())
  /// The ciphertext being sent, reused from one send to the next.
  private let sending = Locked<[UInt8]>([])
  /// Sends whole buffers of ciphertext, waiting for room, and shuts the socket down on failure.
  private let raw: SocketWriter
  /// The address, for messages.
  private let address: String

  /// A client session on `fd` for `context`, checking that the server's certificate names
  /// `serverName` when the context verifies (`nil`: the chain only).
  init(
    fd: Int32, wake: WakePipe, context: TLSContext, serverName: String?, address: String
  ) throws(ClientError) {
    do {
      session = try TLSSession(context: context, serverName: serverName)
    } catch {
      throw .connectionFailed(address: address, reason: error.description)
    }
    self.fd = fd
    self.wake = wake
    self.raw = SocketWriter(fd: fd, wake: wake)
    self.address = address
  }

  /// Runs the handshake to its end, or throws why it failed: the server's certificate refused
  /// (unknown authority, expired, another host's), the server's alert, or no answer in time.
  func handshake(until deadline: ContinuousClock.Instant) throws(ClientError) {
    do throws(TLSFailure) {
      try withSession { (session) throws(TLSFailure) in try session.startHandshake() }
    } catch {
      throw .connectionFailed(address: address, reason: error.description)
    }
    var chunk = [UInt8](repeating: 0, count: 16_384)
    while true {
      let outcome: TLSRead
      do throws(TLSFailure) {
        // No buffer: this only moves the handshake on.
        outcome = try withSession { (session) throws(TLSFailure) in
          try session.read(into: UnsafeMutableRawBufferPointer(start: nil, count: 0))
        }
      } catch {
        flushPending()
        throw .connectionFailed(address: address, reason: error.description)
      }
      flushPending()
      switch outcome {
      case .handshakeCompleted: return
      case .closedByPeer:
        throw .connectionFailed(address: address, reason: "the server closed the TLS session")
      case .plaintext, .needsInput:
        do throws(LineReader.End) {
          try receiveCiphertext(into: &chunk, until: deadline)
        } catch {
          switch error {
          case .woken: throw .closed
          case .timedOut:
            throw .connectionFailed(address: address, reason: "no TLS handshake in time")
          case .closed(let reason), .invalid(let reason):
            throw .connectionFailed(address: address, reason: "TLS handshake: \(reason)")
          }
        }
      }
    }
  }

  /// Reads plaintext into `chunk`, waiting up to `deadline` (`nil`: for ever); returns how many
  /// bytes, always more than zero.
  func read(into chunk: inout [UInt8], until deadline: ContinuousClock.Instant?) throws(LineReader
    .End) -> Int
  {
    while true {
      let outcome: TLSRead
      do throws(TLSFailure) {
        // withUnsafeMutableBytes rethrows untyped errors: the failure goes out as a Result.
        outcome = try chunk.withUnsafeMutableBytes { buffer in
          Result { () throws(TLSFailure) in
            try withSession { (session) throws(TLSFailure) in try session.read(into: buffer) }
          }
        }.get()
      } catch {
        flushPending()
        throw .closed(error.description)
      }
      if sessionLock.withLock({ _ in session.hasCiphertext }) { flushPending() }
      switch outcome {
      case .plaintext(let count) where count > 0: return count
      case .closedByPeer: throw .closed("the server closed the TLS session")
      case .plaintext, .handshakeCompleted: continue
      case .needsInput: try receiveCiphertext(into: &chunk, until: deadline)
      }
    }
  }

  /// Encrypts `plaintext` and sends it; `false` when the session or the socket failed (the
  /// socket is then shut down, so the reader sees the end).
  func send(_ plaintext: [UInt8]) -> Bool {
    sending.withLock { ciphertext in
      ciphertext.removeAll(keepingCapacity: true)
      do throws(TLSFailure) {
        try plaintext.withUnsafeBytes { bytes in
          Result { () throws(TLSFailure) in
            try withSession { (session) throws(TLSFailure) in
              try session.send(bytes, appendingTo: &ciphertext)
            }
          }
        }.get()
      } catch {
        raw.shutDown()
        return false
      }
      return raw.send(ciphertext)
    }
  }

  /// Says close_notify, in one attempt that never waits: the socket closes right after.
  func close() {
    var ciphertext: [UInt8] = []
    sessionLock.withLock { _ in
      session.close()
      session.takeCiphertext(appendingTo: &ciphertext)
    }
    _ = ciphertext.withUnsafeBytes {
      Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
    }
  }

  /// Runs `body` on the session under its lock, passing on what it throws.
  private func withSession<T: Sendable>(_ body: (TLSSession) throws(TLSFailure) -> T)
    throws(TLSFailure) -> T
  {
    try sessionLock.withLock { _ in Result { () throws(TLSFailure) in try body(session) } }.get()
  }

  /// Sends what OpenSSL wrote on its own: handshake messages, alerts, key updates.
  private func flushPending() {
    sending.withLock { ciphertext in
      ciphertext.removeAll(keepingCapacity: true)
      sessionLock.withLock { _ in _ = session.takeCiphertext(appendingTo: &ciphertext) }
      if !ciphertext.isEmpty { raw.send(ciphertext) }
    }
  }

  /// Reads what the socket has into the session, waiting for it up to `deadline`.
  private func receiveCiphertext(
    into chunk: inout [UInt8], until deadline: ContinuousClock.Instant?
  ) throws(LineReader.End) {
    while true {
      let count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
      if count > 0 {
        chunk.withUnsafeBytes { bytes in
          sessionLock.withLock { _ in
            session.feed(UnsafeRawBufferPointer(rebasing: bytes[..<count]))
          }
        }
        return
      }
      if count == 0 {
        // The next read says whether the server ended with close_notify or just vanished.
        sessionLock.withLock { _ in session.feedEndOfStream() }
        return
      }
      let code = errno
      if code == EINTR { continue }
      guard code == EAGAIN || code == EWOULDBLOCK else {
        throw .closed(String(cString: strerror(code)))
      }
      switch PollWait.wait(fd: fd, events: Int16(POLLIN), until: deadline, wake: wake) {
      case .ready: continue
      case .timedOut: throw .timedOut
      case .woken: throw .woken
      }
    }
  }
}
