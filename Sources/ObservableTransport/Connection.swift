import CLinux
import Deflate
import Glibc
import Logging
import ObservableFraming
import ObservablePOSIX
import ObservableSession
import ObservableStreams
import ObservableVersion
import ObservableWire
import TLS

/// One client socket on an event loop: it reads bytes, hands them through its ``Framing`` to its
/// ``Session``, and writes what the session and the streams queue in its ``Outbox``.
///
/// Reading, request handling, writing and closing all happen on the connection's loop. Streams
/// deliver from other threads into the outbox only. Closing the socket, for any reason, ends
/// the session, so every subscription's disconnect runs once.
package final class Connection: ReadinessHandler, @unchecked Sendable {
  // Unchecked: other threads only call `deliver(_:)`, which touches the mutex-guarded outbox
  // and the loop's task queue; every other member is used on the loop's thread alone.

  package let peer: String
  let loop: EventLoop

  package init(
    descriptor: Int32,
    peer: String,
    on home: ConnectionLoop,
    settings: ConnectionSettings,
    context: SessionContext,
    admission: Admission,
    slots: Admission.Slots,
    framing: any Framing,
    tls: TLSSession? = nil
  ) {
    self.slots = slots
    socket = ConnectionSocket(descriptor: descriptor)
    self.peer = peer
    self.home = home
    loop = home.loop
    self.settings = settings
    self.context = context
    self.admission = admission
    self.framing = framing
    outbox = Outbox(limit: settings.maxQueuedBytes, account: home.queuedOutput)
    output.tls = tls.map(ConnectionTLS.init(session:))
  }

  // MARK: Any thread

  /// Queues a stream's lines for writing; counts them as dropped when the connection cannot
  /// take them.
  func deliver(_ lines: [UInt8]) {
    deliver(lines, as: lines)
  }

  /// Queues `bytes`, the outbox's form of the delivery `lines`; counts the lines as dropped
  /// when the connection cannot take them.
  func deliver(_ lines: [UInt8], as bytes: [UInt8]) {
    guard !enqueue(bytes) else { return }
    let dropped = lines.reduce(0) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
    context.counters.update { $0.droppedTotal += dropped }
  }

  /// Queues bytes for writing; returns whether they were accepted.
  @discardableResult
  func enqueue(_ bytes: [UInt8]) -> Bool {
    let outcome = outbox.append(bytes)
    // One atomic load per enqueue; the cut itself runs as a task on each loop.
    home.queuedOutput.cutIfOverLimit()
    switch outcome {
    case .queued:
      return true
    case .needsFlush:
      // On its own loop with a send ring, the connection joins the turn's batch directly: a
      // broadcast to thousands of connections then costs no loop task per connection.
      if let ring = loop.sendRing, loop.inLoop {
        ring.enqueue(self)
      } else {
        loop.execute { [self] in flush() }
      }
      return true
    case .overflowed:
      context.counters.update { $0.slowConsumersTotal += 1 }
      loop.execute { [self] in closeAsSlowConsumer() }
      return false
    case .refused:
      return false
    }
  }

  // MARK: Loop thread

  /// Registers with the loop and greets the client.
  func open() {
    loop.assertInLoop()
    // Shutdown began between the accept and this turn: the connection never opens, unless it
    // is HTTP, which answers during the grace (`/healthz` with 503) and closes by itself.
    guard admission.isAccepting || framing is HTTPFraming else {
      Glibc.close(descriptor)
      admission.release(slots)
      return
    }
    do {
      try socket.register(on: loop, handler: self)
    } catch {
      context.logger.warning(
        "cannot watch connection", metadata: ["peer": "\(peer)", "error": "\(error)"])
      Glibc.close(descriptor)
      admission.release(slots)
      return
    }
    home.connections.insert(self)
    if output.tls != nil { startTLSHandshake() }
    if attachFraming() { startSession() }
    context.logger.debug("connection opened", metadata: ["peer": "\(peer)"])
  }

  /// Starts the protocol: the session, the limits of an unauthenticated client, the greeting.
  /// At open for line transports; at the upgrade for WebSocket.
  func startSession() {
    loop.assertInLoop()
    guard session == nil, !lifecycle.isClosed else { return }
    // The observer holds the connection; the session holds the observer until it ends, and the
    // connection drops the session when it closes, which breaks the cycle.
    let observer: StreamObserver
    if let encoding = framing.outboxEncoding {
      // SSE: the outbox holds events, each value's made once for all its readers.
      replyEncoding = encoding.reply
      let deliveries = encoding.deliveries
      observer = StreamObserver { [self] lines in
        deliver(lines, as: DeliveryEncodingMemo.encode(lines, by: deliveries))
      }
    } else {
      observer = StreamObserver { [self] lines in deliver(lines) }
    }
    let session = Session(
      output: self, observer: observer, context: context, scratch: home.scratch,
      disconnects: home.disconnects)
    self.session = session
    if context.requiresAuthentication {
      // Until it authenticates, a client can make the server hold only a little memory.
      framing.maxLineBytes = min(settings.maxLineBytes, Self.unauthenticatedLineBytes)
      outbox.setLimit(min(settings.maxQueuedBytes, Self.unauthenticatedQueuedBytes))
    }
    send(
      Greeting.line(
        version: ReleaseVersion.current, authRequired: context.requiresAuthentication,
        history: session.keepsHistory))
    session.start()
  }

  package func descriptorReady(_ events: UInt32) {
    loop.assertInLoop()
    let failed = events & (EPOLLHUP.rawValue | EPOLLERR.rawValue) != 0
    let readable = events & (EPOLLIN.rawValue | EPOLLRDHUP.rawValue) != 0
    switch lifecycle.state {
    case .open:
      if failed || readable { readAvailable() }
      if !lifecycle.isClosed, events & EPOLLOUT.rawValue != 0 { flush() }
    case .peerClosed, .finishing:
      // Written now, not with the turn's batch: a failed socket closes right after.
      if failed { writeNow() } else if events & EPOLLOUT.rawValue != 0 { flush() }
      if failed { return close(lifecycle.finishReason ?? "reset by peer") }
      if case .finishing = lifecycle.state, readable { discardInput() }
    case .draining:
      if events & EPOLLOUT.rawValue != 0 { flush() }
      if !lifecycle.isClosed, failed || readable { discardInput() }
    case .closed:
      // Unreachable: the loop forgets a closed connection's descriptor.
      return
    }
  }

  /// Ends the session: what was read is published, and every subscription's disconnect runs.
  func endSession() {
    loop.assertInLoop()
    session?.end()
    session = nil
  }

  /// Closes the socket and ends the session, once, however the connection ends.
  func close(_ reason: String) {
    loop.assertInLoop()
    guard lifecycle.close(reason) else { return }
    home.heapTrim.released(outbox.queuedBytes + output.heldBytes)
    outbox.close()
    // Nothing more is written: the shared chunks not sent go back now, not when the last
    // reference to the connection does.
    output.releaseChunks()
    socket.close(on: loop)
    for timer in timers { loop.cancel(timer) }
    timers.removeAll()
    framing.connectionClosed()
    // What was read before the close is published, whatever closes the connection.
    endSession()
    home.connections.remove(self)
    if let tls = output.tls { tlsConnectionClosed(tls) }
    admission.release(slots)
    context.logger.debug("connection closed", metadata: ["peer": "\(peer)", "reason": "\(reason)"])
  }

  // MARK: State shared with the writing side

  /// The socket, and what the loop watches on it.
  let socket: ConnectionSocket
  /// The socket's descriptor.
  package var descriptor: Int32 { socket.descriptor }
  let outbox: Outbox
  let settings: ConnectionSettings
  let context: SessionContext
  /// How bytes become lines; replaced once, at a WebSocket upgrade.
  ///
  /// Unchecked, as are ``watchingWritable``, ``lifecycle`` and ``readBudget``: each is read
  /// or changed on the connection's loop alone, by a load or a plain struct method that calls
  /// nothing back, and their run-time checks were half of a lone value's exclusivity checks
  /// (callgrind: about 22 `swift_beginAccess` a publish to ten subscribers in `prepareWrite`).
  @exclusivity(unchecked) var framing: any Framing
  /// The bytes being written, framed and compressed.
  ///
  /// Unchecked: every access is on the connection's loop, none is held across a call that
  /// could reach the connection again, and since the send ring moved to another module the
  /// runtime check cost the write path a `swift_beginAccess` at every step of every flush.
  @exclusivity(unchecked) var output = OutgoingBytes()
  /// Whether the loop reports when the socket has room (`EPOLLOUT`).
  @exclusivity(unchecked) var watchingWritable = false
  /// Set while the connection waits for its loop's send ring (see ``RingWriter``).
  ///
  /// Unchecked as ``output`` is: a flag the ring alone reads and sets, on the loop.
  @exclusivity(unchecked) package var awaitingRing = false
  /// The bytes of the send the ring has in flight, kept where they are until it settles,
  /// whatever ``output`` does meanwhile (a close releases its chunks; a refill reuses its
  /// buffer, which this copy then makes copy on write). Unchecked as ``output`` is.
  @exclusivity(unchecked) var sendInFlight: OutgoingBytes.Held?
  /// Where the connection is in its life. Each change is a ``ConnectionLifecycle`` method,
  /// called from the connection's files alone.
  @exclusivity(unchecked) var lifecycle = ConnectionLifecycle()
  /// The loop the connection lives on, with what its connections share there.
  let home: ConnectionLoop
  /// How much the connection reads in one turn of its loop.
  @exclusivity(unchecked) var readBudget = ReadBudget(largestRead: EventLoop.readBufferBytes)
  private let admission: Admission
  /// The limit the connection counts against, released when it closes.
  private let slots: Admission.Slots
  private(set) var session: Session?
  /// The loop timers the connection scheduled, cancelled when it closes.
  var timers: Set<LoopTimer> = []
  /// How the session's replies go into the outbox when the framing does not take lines
  /// (``Framing/outboxEncoding``); nil: as they are.
  var replyEncoding: (([UInt8]) -> [UInt8])?
}
