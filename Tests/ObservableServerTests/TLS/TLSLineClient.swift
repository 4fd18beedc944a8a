import Foundation
import Glibc
import TLS
import TestSupport

/// A line client over TLS for the tests, built on the `TLS` module's client session: a
/// blocking loopback socket, every wait bounded by a deadline.
final class TLSLineClient {
  /// The socket.
  let fd: Int32
  /// The client session.
  let session: TLSSession
  private var plaintext: [UInt8] = []
  private var ended = false
  private var closed = false

  /// Connects to `port` and completes the handshake with `context`, checking `serverName`.
  init(
    port: UInt16, context: TLSContext, serverName: String? = "localhost",
    timeout: Duration = .seconds(5)
  ) throws {
    fd = try SocketEndpoint.tcp(host: "127.0.0.1", port: port).connect()
    session = try TLSSession(context: context, serverName: serverName)
    try session.startHandshake()
    try flushCiphertext()
    let deadline = ContinuousClock.now + timeout
    while !session.isHandshakeComplete {
      try pump(until: deadline)
    }
  }

  /// A client context that trusts the authority `ca.pem` of `certificates`, presenting
  /// `certificate` (a name in `certificates`, such as `client`) when given.
  static func context(_ certificates: TestCertificates, certificate: String? = nil) throws
    -> TLSContext
  {
    try TLSContext(
      client: TLSClientConfiguration(
        serverVerification: .verify(caFile: certificates.path("ca.pem")),
        certificateChainFile: certificate.map { certificates.path("\($0).pem") },
        privateKeyFile: certificate.map { certificates.path("\($0).key") }))
  }

  deinit { close() }

  /// Closes the socket, once, without close_notify.
  func close() {
    guard !closed else { return }
    closed = true
    Glibc.close(fd)
  }

  /// Makes the socket's close a reset (RST) rather than a FIN: a peer that vanishes.
  func resetOnClose() {
    var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
    setsockopt(fd, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
  }

  /// The server's certificate, as the handshake presented it.
  var serverCertificate: TLSPeerCertificate? { session.peerCertificate }

  /// Sends `text` and a newline, sealed.
  func send(_ text: String) throws {
    try sendRaw(Array((text + "\n").utf8))
  }

  /// Sends `bytes` as they are, sealed; the records go out `piece` bytes a `send` at most, so
  /// that the server's reads can end inside a record.
  func sendRaw(_ bytes: [UInt8], piece: Int = .max) throws {
    var records: [UInt8] = []
    try bytes.withUnsafeBytes { try session.send($0, appendingTo: &records) }
    try write(records, piece: piece)
  }

  /// The plaintext received and not read as lines yet.
  var unreadPlaintext: [UInt8] { plaintext }

  /// Reads one line, without its newline, within `timeout`.
  func readLine(timeout: Duration = .seconds(5)) throws -> String {
    let deadline = ContinuousClock.now + timeout
    while true {
      if let newline = plaintext.firstIndex(of: 0x0A) {
        let line = String(decoding: plaintext[..<newline], as: UTF8.self)
        plaintext.removeSubrange(...newline)
        return line
      }
      guard !ended else { throw TestSupportError("connection ended") }
      try pump(until: deadline)
    }
  }

  /// Reads lines until one holds `text`, within `timeout`; returns it.
  func readLine(containing text: String, timeout: Duration = .seconds(5)) throws -> String {
    let deadline = ContinuousClock.now + timeout
    while true {
      let line = try readLine(timeout: deadline - ContinuousClock.now)
      if line.contains(text) { return line }
    }
  }

  /// Whether the server ended the connection (close_notify or the socket's end) within
  /// `timeout`, reading and dropping lines meanwhile.
  func waitForEnd(timeout: Duration = .seconds(5)) -> Bool {
    let deadline = ContinuousClock.now + timeout
    while !ended, ContinuousClock.now < deadline {
      do { try pump(until: deadline) } catch { return true }
    }
    return ended
  }

  /// Waits for socket input until `deadline`, then feeds it to the session and keeps the
  /// plaintext it yields.
  private func pump(until deadline: ContinuousClock.Instant) throws {
    var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
    let left = max(.zero, deadline - ContinuousClock.now)
    let milliseconds = Int32(
      left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000)
    guard poll(&descriptor, 1, milliseconds) == 1 else {
      throw LineClient.Timeout(description: "nothing from the TLS server within the deadline")
    }
    var chunk = [UInt8](repeating: 0, count: 65536)
    let count = recv(fd, &chunk, chunk.count, 0)
    guard count >= 0 else { throw TestSupportError(call: "recv", code: errno) }
    if count == 0 {
      session.feedEndOfStream()
    } else {
      chunk.withUnsafeBytes { session.feed(UnsafeRawBufferPointer(rebasing: $0[..<count])) }
    }
    var buffer = [UInt8](repeating: 0, count: 65536)
    loop: while true {
      let outcome: TLSRead
      do {
        outcome = try buffer.withUnsafeMutableBytes { try session.read(into: $0) }
      } catch {
        // The alert that says why goes to the server first, as a real client sends it.
        try? flushCiphertext()
        throw error
      }
      switch outcome {
      case .plaintext(let n): plaintext += buffer[..<n]
      case .handshakeCompleted: continue
      case .needsInput: break loop
      case .closedByPeer:
        ended = true
        break loop
      }
    }
    try flushCiphertext()
    if count == 0 { ended = true }
  }

  private func flushCiphertext() throws {
    var records: [UInt8] = []
    session.takeCiphertext(appendingTo: &records)
    try write(records)
  }

  private func write(_ bytes: [UInt8], piece: Int = .max) throws {
    var offset = 0
    while offset < bytes.count {
      let sent = bytes[offset..<min(bytes.count, offset &+ piece)].withUnsafeBytes {
        Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
      }
      guard sent >= 0 else { throw TestSupportError(call: "send", code: errno) }
      offset += sent
    }
  }
}
