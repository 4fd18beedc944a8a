import Glibc
import TLS

/// Moves bytes between one non-blocking socket and a ``TLSSession`` with poll(2), as the event
/// loop will: socket to ``TLSSession/feed(_:)`` and ``TLSSession/read(into:)``, plaintext to
/// ``TLSSession/send(_:appendingTo:)``, ``TLSSession/takeCiphertext(appendingTo:)`` to the
/// socket. Test-only; every run is bounded in time. Owns the socket.
final class TLSPump {
  let session: TLSSession
  private let descriptor: Int32
  /// The plaintext received so far.
  private(set) var received: [UInt8] = []
  /// How many times the session reported a completed handshake.
  private(set) var handshakes = 0
  /// The failure that ended the session, if one did.
  private(set) var failure: TLSFailure?
  /// Whether the socket reached its end (or broke).
  private(set) var socketEnded = false
  /// Whether plaintext received is sent straight back.
  var echoes = false
  private var plaintextToSend: [UInt8] = []
  private var ciphertext: [UInt8] = []
  private var closing = false
  private var buffer = [UInt8](repeating: 0, count: 65536)

  /// A pump over `descriptor` (non-blocking, owned from now on) and `session`.
  init(descriptor: Int32, session: TLSSession) {
    self.descriptor = descriptor
    self.session = session
  }

  deinit { Glibc.close(descriptor) }

  /// The plaintext received so far, as text.
  var text: String { String(decoding: received, as: UTF8.self) }

  /// Queues `text` to send once the handshake is complete.
  func send(_ text: String) { plaintextToSend += Array(text.utf8) }

  /// Says close_notify once everything queued is sent.
  func close() { closing = true }

  /// Runs until `done` holds, or the socket ended and everything is sent, or `timeout`
  /// passed; returns whether `done` held.
  @discardableResult
  func run(for timeout: Duration = .seconds(10), until done: (TLSPump) -> Bool) -> Bool {
    let deadline = ContinuousClock.now + timeout
    if session.context.role == .client, handshakes == 0, failure == nil {
      catching { try session.startHandshake() }
    }
    while ContinuousClock.now < deadline {
      prepareOutput()
      flush()
      if done(self) { return true }
      if socketEnded || (failure != nil && ciphertext.isEmpty) { return done(self) }
      var events = pollfd(
        fd: descriptor, events: Int16(POLLIN) | (ciphertext.isEmpty ? 0 : Int16(POLLOUT)),
        revents: 0)
      guard poll(&events, 1, 50) == 1, events.revents & Int16(POLLIN | POLLHUP | POLLERR) != 0
      else { continue }
      readSocket()
    }
    return done(self)
  }

  private func prepareOutput() {
    guard failure == nil, session.isHandshakeComplete else { return }
    if !plaintextToSend.isEmpty {
      let batch = plaintextToSend
      plaintextToSend = []
      catching { try batch.withUnsafeBytes { try session.send($0, appendingTo: &ciphertext) } }
    }
    if closing {
      closing = false
      session.close()
    }
  }

  private func flush() {
    session.takeCiphertext(appendingTo: &ciphertext)
    while !ciphertext.isEmpty {
      let sent = ciphertext.withUnsafeBytes {
        Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
      }
      guard sent > 0 else {
        if sent < 0, errno != EAGAIN, errno != EINTR { ciphertext = [] }
        return
      }
      ciphertext.removeFirst(sent)
    }
  }

  private func readSocket() {
    let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
    if count < 0, errno == EAGAIN || errno == EINTR { return }
    if count <= 0 {
      socketEnded = true
      session.feedEndOfStream()
    } else {
      buffer.withUnsafeBytes { session.feed(UnsafeRawBufferPointer(rebasing: $0[..<count])) }
    }
    drain()
  }

  /// Reads everything the fed ciphertext holds, as the connection's read path will.
  private func drain() {
    while failure == nil {
      var outcome = TLSRead.needsInput
      catching { outcome = try buffer.withUnsafeMutableBytes { try session.read(into: $0) } }
      switch outcome {
      case .plaintext(let count):
        received += buffer[..<count]
        if echoes { plaintextToSend += buffer[..<count] }
      case .handshakeCompleted:
        handshakes += 1
      case .needsInput, .closedByPeer:
        return
      }
    }
  }

  private func catching(_ body: () throws -> Void) {
    do {
      try body()
    } catch {
      failure = error as? TLSFailure ?? TLSFailure(.protocolError(reason: 0), "\(error)")
    }
  }
}
