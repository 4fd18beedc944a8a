import Glibc
import PeerWire
import TLS

/// One non-blocking connection to a compared server, plain or over TLS, in the server's own
/// protocol: bytes queued and flushed, what arrives decoded into ``PeerMessage``s in place.
///
/// Used by one thread at a time. Over TLS the session is a byte transform between the socket
/// and the buffers (the project's `TLS` module): ciphertext read is fed to it and plaintext
/// read out into the input buffer; plaintext queued is encrypted straight into the output.
/// A server that greets in clear first (nats-server 2.9's `INFO`) gets its greeting read
/// before the handshake starts on the same socket.
final class PeerConnection {
  let descriptor: Int32
  let dialect: PeerDialect

  /// Connects to `port` on 127.0.0.1 (blocking: loopback connects at once, and a batch stays
  /// under the listen backlog), then makes the socket non-blocking. With `tls`, the session
  /// is a client of that context for the name 127.0.0.1.
  init(
    port: UInt16, dialect: PeerDialect, tls: TLSContext?, stream: String,
    readCapacity: Int = 64 * 1024
  ) throws(BenchError) {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
    guard fd >= 0 else { throw .system(call: "socket", code: errno) }
    var on: Int32 = 1
    setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
    guard LoopbackAddress(ipv4Port: port).withSocketAddress({ connect(fd, $0, $1) }) == 0 else {
      let code = errno
      close(fd)
      throw .system(call: "connect to 127.0.0.1:\(port)", code: code)
    }
    _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
    descriptor = fd
    self.dialect = dialect
    lineDecoder = JSONLineDecoder(stream: stream)
    capacity = readCapacity
    input = .allocate(byteCount: readCapacity, alignment: 16)
    cipher = tls == nil ? nil : .allocate(byteCount: Self.chunk, alignment: 16)
    do {
      session = try tls.map { context throws(TLSFailure) in
        try TLSSession(context: context, serverName: "127.0.0.1")
      }
    } catch {
      close(fd)
      input.deallocate()
      cipher?.deallocate()
      throw .unexpected("TLS session: \(error)")
    }
    phase = session == nil ? .open : dialect.greetsBeforeTLS ? .awaitingClearGreeting : .handshaking
    if phase == .handshaking { try startHandshake() }
  }

  deinit {
    close(descriptor)
    input.deallocate()
    cipher?.deallocate()
  }

  /// Bytes received from the socket so far, TLS records included.
  private(set) var bytesRead = 0

  /// Whether the TLS handshake is done, or the connection is plain.
  var isOpen: Bool { phase == .open }

  /// The TLS version and cipher the server chose, such as `TLSv1.3 TLS_AES_256_GCM_SHA384`;
  /// `nil` when plain or before the handshake.
  var tlsDescription: String? {
    guard let session, session.isHandshakeComplete else { return nil }
    return "\(session.negotiatedProtocol ?? "?") \(session.cipher ?? "?")"
  }

  var hasPendingOutput: Bool { outputOffset < output.count }

  /// The poll(2) events this connection waits for now.
  var pollEvents: Int16 { Int16(POLLIN) | (hasPendingOutput ? Int16(POLLOUT) : 0) }

  // MARK: Output

  /// Queues `bytes` of the protocol; over TLS before the handshake is done, they wait for it.
  func queue(_ bytes: [UInt8]) throws(BenchError) {
    guard phase == .open else {
      waitingPlaintext += bytes
      return
    }
    // withUnsafeBytes rethrows untyped errors, so the typed one is carried out by hand.
    if let failure = bytes.withUnsafeBytes({ append($0) }) { throw failure }
  }

  /// Queues `count` bytes that `fill` writes in place (a batch of publishes); the connection
  /// must be open.
  func queue(byteCount count: Int, _ fill: (UnsafeMutableRawPointer) -> Void) throws(BenchError) {
    guard session != nil else {
      let start = output.count
      output.append(contentsOf: repeatElement(0, count: count))
      output.withUnsafeMutableBytes { fill($0.baseAddress! + start) }
      return
    }
    if scratch.count < count { scratch = [UInt8](repeating: 0, count: count) }
    scratch.withUnsafeMutableBytes { fill($0.baseAddress!) }
    let failure = scratch.withUnsafeBytes {
      append(UnsafeRawBufferPointer(rebasing: $0[0..<count]))
    }
    if let failure { throw failure }
  }

  /// Writes pending output until it is all written (`true`) or the socket is full (`false`).
  @discardableResult
  func flush() throws(BenchError) -> Bool {
    try SocketOutput.flush(descriptor, &output, offset: &outputOffset)
  }

  // MARK: Input

  /// Reads what the socket has and hands each complete message to `handle`; `false` when the
  /// server closed the connection. Answers a NATS `PING` by itself as well.
  func read(_ handle: (PeerMessage) -> Void) throws(BenchError) -> Bool {
    while true {
      let room =
        phase == .awaitingClearGreeting || session == nil ? capacity - count : Self.chunk
      if room == 0 { throw .unexpected("a message longer than \(capacity) bytes") }
      let clear = session == nil || phase == .awaitingClearGreeting
      guard let target = clear ? input + count : cipher else { return true }
      let received = recv(descriptor, target, room, 0)
      if received == 0 { return false }
      if received < 0 {
        switch errno {
        case EINTR: continue
        case EAGAIN, EWOULDBLOCK: return true
        case let code: throw .system(call: "recv", code: code)
        }
      }
      bytesRead += received
      if let session, !clear {
        session.feed(UnsafeRawBufferPointer(start: target, count: received))
        try readPlaintext(session, handle)
      } else {
        count += received
        if phase == .awaitingClearGreeting {
          try readClearGreeting(handle)
        } else {
          try decode(handle)
        }
      }
      if received < room { return true }
    }
  }

  // MARK: Private

  private enum Phase { case awaitingClearGreeting, handshaking, open }

  private static let chunk = 64 * 1024
  private let lineDecoder: JSONLineDecoder
  private let session: TLSSession?
  private var phase: Phase
  private let input: UnsafeMutableRawPointer
  private let capacity: Int
  /// Plaintext bytes in `input`, of which the first are an unfinished message.
  private var count = 0
  /// Where ciphertext is read to before the session takes it; `nil` when plain.
  private let cipher: UnsafeMutableRawPointer?
  private var output: [UInt8] = []
  private var outputOffset = 0
  private var waitingPlaintext: [UInt8] = []
  private var scratch: [UInt8] = []

  private func startHandshake() throws(BenchError) {
    guard let session else { return }
    do { try session.startHandshake() } catch { throw .unexpected("TLS: \(error)") }
    session.takeCiphertext(appendingTo: &output)
  }

  /// Appends `plaintext` to the output, encrypted over TLS; the failure, if it cannot.
  private func append(_ plaintext: UnsafeRawBufferPointer) -> BenchError? {
    guard let session else {
      output.append(contentsOf: plaintext)
      return nil
    }
    do {
      try session.send(plaintext, appendingTo: &output)
      return nil
    } catch {
      return .unexpected("TLS: \(error)")
    }
  }

  /// The greeting a server sends in clear before TLS; once it is in, the handshake starts.
  private func readClearGreeting(_ handle: (PeerMessage) -> Void) throws(BenchError) {
    let info = NATSDecoder.info(in: UnsafeRawBufferPointer(start: input, count: count))
    guard let info else { return }
    handle(.greeting)
    guard info.length == count else {
      throw .unexpected("bytes after the clear greeting, before TLS started")
    }
    count = 0
    phase = .handshaking
    try startHandshake()
  }

  /// Decrypts everything the session holds into the input buffer, decoding as it fills.
  private func readPlaintext(_ session: TLSSession, _ handle: (PeerMessage) -> Void)
    throws(BenchError)
  {
    defer { session.takeCiphertext(appendingTo: &output) }
    while true {
      if count == capacity {
        try decode(handle)
        if count == capacity { throw .unexpected("a message longer than \(capacity) bytes") }
      }
      let outcome: TLSRead
      do {
        outcome = try session.read(
          into: UnsafeMutableRawBufferPointer(start: input + count, count: capacity - count))
      } catch { throw .unexpected("TLS: \(error)") }
      switch outcome {
      case .plaintext(let produced): count += produced
      case .handshakeCompleted:
        phase = .open
        let waiting = waitingPlaintext
        waitingPlaintext = []
        try queue(waiting)
      case .needsInput, .closedByPeer:
        try decode(handle)
        return
      }
    }
  }

  /// Hands the complete messages in the input buffer to `handle` and keeps the rest.
  private func decode(_ handle: (PeerMessage) -> Void) throws(BenchError) {
    let bytes = UnsafeRawBufferPointer(start: input, count: count)
    var pinged = false
    let used: Int
    do {
      used = try dialect.decode(bytes, lineDecoder: lineDecoder) { message in
        if case .ping = message { pinged = true }
        handle(message)
      }
    } catch { throw .unexpected("\(dialect.rawValue): \(error)") }
    if used > 0, used < count { memmove(input, input + used, count - used) }
    count -= used
    if pinged { try queue(dialect.pingAnswer) }
  }
}
