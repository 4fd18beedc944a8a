import CLinux
import Dispatch
import Glibc
import Logging

/// One client socket: an observer of the streams it subscribes to.
///
/// Reading, request handling, writing and closing all happen on the connection's event loop.
/// Streams deliver from other threads into the ``Outbox`` only. Closing the socket, for any
/// reason, unsubscribes every subscription of the connection, each disconnect running once.
final class Connection: ReadinessHandler, @unchecked Sendable {
  // Unchecked: other threads only call `deliver(_:)`, which touches the mutex-guarded outbox
  // and the loop's task queue; every other member is used on `loop`'s thread alone.

  let peer: String
  let loop: EventLoop
  let state: ServerState

  init(descriptor: Int32, peer: String, loop: EventLoop, state: ServerState) {
    self.descriptor = descriptor
    self.peer = peer
    self.loop = loop
    self.state = state
    outbox = Outbox(limit: state.configuration.maxQueuedBytes)
    framer = LineFramer(maxLineBytes: state.configuration.maxLineBytes)
  }

  /// The observer this connection subscribes with; each line goes to the outbox.
  ///
  /// It holds the connection strongly, so the connection drops it when it closes: kept, it
  /// would keep the closed connection, its buffers and its compressor alive for ever.
  private(set) var observer: StreamObserver?

  // MARK: Any thread

  /// Queues a stream's lines for writing; counts them as dropped when the connection cannot
  /// take them.
  func deliver(_ lines: [UInt8]) {
    guard !enqueue(lines) else { return }
    let dropped = lines.reduce(0) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
    state.counters.update { $0.droppedTotal += dropped }
  }

  /// Queues bytes for writing; returns whether they were accepted.
  @discardableResult
  func enqueue(_ bytes: [UInt8]) -> Bool {
    let outcome = bytes.withUnsafeBytes { outbox.append($0) }
    switch outcome {
    case .queued:
      return true
    case .needsFlush:
      loop.execute { [self] in flush() }
      return true
    case .overflowed:
      state.counters.update { $0.slowConsumersTotal += 1 }
      loop.execute { [self] in closeAsSlowConsumer() }
      return false
    case .refused:
      return false
    }
  }

  // MARK: Loop thread

  /// Registers with the loop and greets the client.
  func open() {
    // Shutdown may have closed the connection before its first turn on the loop.
    guard !closed else { return }
    do {
      try loop.register(descriptor, events: EPOLLIN.rawValue | EPOLLRDHUP.rawValue, handler: self)
    } catch {
      state.logger.warning(
        "cannot watch connection", metadata: ["peer": "\(peer)", "error": "\(error)"])
      Glibc.close(descriptor)
      state.remove(self)
      return
    }
    observer = StreamObserver { [self] lines in deliver(lines) }
    session = Session(connection: self)
    enqueue(Greeting.line(version: state.version, authRequired: state.configuration.token != nil))
    state.logger.info("connection opened", metadata: ["peer": "\(peer)"])
  }

  func descriptorReady(_ events: UInt32) {
    let failed = events & (EPOLLHUP.rawValue | EPOLLERR.rawValue) != 0
    if peerClosed {
      if failed || events & EPOLLOUT.rawValue != 0 { flush() }
      if failed { close("reset by peer") }
      return
    }
    if failed || events & (EPOLLIN.rawValue | EPOLLRDHUP.rawValue) != 0 { readAvailable() }
    if !closed, events & EPOLLOUT.rawValue != 0 { flush() }
  }

  /// Switches both directions to raw deflate: everything queued so far, then `reply` (the
  /// `compress` reply) go out uncompressed, and every byte after them compressed.
  ///
  /// The reply is placed here instead of being queued, because streams append to the outbox
  /// from other threads: a value queued between a queued reply and the switch would go out
  /// uncompressed after the reply, where the client already expects deflate.
  func startCompression(_ codec: WireCompression, reply: [UInt8]) {
    if writeOffset == writing.count {
      writing.removeAll(keepingCapacity: true)
      writeOffset = 0
    }
    outbox.take(replacingWith: &plain, inFlight: writing.count - writeOffset)
    writing.append(contentsOf: plain)
    writing.append(contentsOf: reply)
    state.counters.update { $0.bytesOutUncompressed += plain.count + reply.count }
    compression = codec
    flush()
  }

  /// Closes the socket and unsubscribes everything, once.
  func close(_ reason: String) {
    guard !closed else { return }
    closed = true
    outbox.close()
    loop.deregister(descriptor)
    Glibc.close(descriptor)
    // What was read before the close is published, whatever closes the connection.
    session?.publishBatched()
    session?.unsubscribeAll()
    session = nil
    observer = nil
    state.remove(self)
    state.logger.info("connection closed", metadata: ["peer": "\(peer)", "reason": "\(reason)"])
  }

  // MARK: Reading

  private func readAvailable() {
    // A bounded number of reads per wake-up, so one busy client cannot starve the others.
    for _ in 0..<16 {
      let result: IOResult<Int>
      do {
        result = try SocketCalls.read(descriptor, into: loop.readBuffer)
      } catch {
        close(error.code == ECONNRESET ? "reset by peer" : "read failed: \(error)")
        return
      }
      switch result {
      case .wouldBlock:
        return
      case .done(0):
        finishAfterPeerClosed()
        return
      case .done(let count):
        state.counters.update { $0.bytesIn += count }
        receive(UnsafeRawBufferPointer(rebasing: loop.readBuffer[0..<count]))
        if closed { return }
        session?.publishBatched()
        // A short read emptied the socket: another read would only say so, one system call per
        // wake-up later, and the level-triggered loop reports whatever arrives next.
        if count < loop.readBuffer.count { return }
      }
    }
  }

  private func receive(_ bytes: UnsafeRawBufferPointer) {
    if let compression {
      do {
        try compression.inflate(bytes) { frame($0) }
      } catch {
        state.logger.warning(
          "corrupt compressed input", metadata: ["peer": "\(peer)", "error": "\(error)"])
        close("corrupt compressed input")
      }
      return
    }
    let consumed = frame(bytes)
    // A `compress` request switched the rest of this read to deflate.
    if consumed < bytes.count, !closed, compression != nil {
      receive(UnsafeRawBufferPointer(rebasing: bytes[consumed...]))
    }
  }

  @discardableResult
  private func frame(_ bytes: UnsafeRawBufferPointer) -> Int {
    framer.feed(bytes) { event in
      guard let session, !closed else { return false }
      switch event {
      case .line(let line): return session.handle(line)
      case .tooLong:
        session.reject(
          op: nil, id: nil,
          ProtocolError(
            .lineTooLong,
            "line longer than \(state.configuration.maxLineBytes) bytes; the rest of it is skipped")
        )
        return true
      }
    }
  }

  /// The client closed its side: it observes nothing any more, but the replies to what it sent
  /// last still go out (`echo list | nc -N host port` prints the list) before the socket closes.
  private func finishAfterPeerClosed() {
    session?.unsubscribeAll()
    peerClosed = true
    do {
      try loop.modify(descriptor, events: EPOLLOUT.rawValue)
    } catch {
      return close("closed by peer")
    }
    flush()
    guard !closed else { return }
    // A client that never reads again must not hold the socket open for ever.
    DispatchQueue.global().asyncAfter(deadline: .now() + .seconds(5)) { [self] in
      loop.execute { [self] in close("closed by peer; unsent replies dropped") }
    }
  }

  // MARK: Writing

  /// Writes what the outbox holds until it is empty or the socket is full.
  func flush() {
    while !closed {
      if writeOffset == writing.count {
        writeOffset = 0
        takeFromOutbox()
        if writing.isEmpty {
          if outbox.finishFlushIfIdle(inFlight: 0) {
            if peerClosed { return close("closed by peer") }
            watchWritable(false)
            return
          }
          continue
        }
      }
      let sent = writing.withUnsafeBytes { bytes in
        Result { () throws(SystemError) in
          try SocketCalls.send(descriptor, UnsafeRawBufferPointer(rebasing: bytes[writeOffset...]))
        }
      }
      let result: IOResult<Int>
      switch sent {
      case .success(let outcome):
        result = outcome
      case .failure(let error):
        close(
          error.code == EPIPE || error.code == ECONNRESET
            ? "reset by peer" : "write failed: \(error)")
        return
      }
      switch result {
      case .done(let count):
        writeOffset += count
        state.counters.update { $0.bytesOut += count }
      case .wouldBlock:
        _ = outbox.finishFlushIfIdle(inFlight: writing.count - writeOffset)
        watchWritable(true)
        return
      }
    }
  }

  private func takeFromOutbox() {
    if writing.capacity > 1 << 20 { writing = [] }
    guard let compression else {
      outbox.take(replacingWith: &writing, inFlight: 0)
      if !writing.isEmpty { state.counters.update { $0.bytesOutUncompressed += writing.count } }
      return
    }
    outbox.take(replacingWith: &plain, inFlight: 0)
    writing.removeAll(keepingCapacity: true)
    guard !plain.isEmpty else { return }
    state.counters.update { $0.bytesOutUncompressed += plain.count }
    plain.withUnsafeBytes { compression.deflate($0, appendingTo: &writing) }
  }

  private func watchWritable(_ watch: Bool) {
    guard watch != watchingWritable, !peerClosed else { return }
    watchingWritable = watch
    let events = EPOLLIN.rawValue | EPOLLRDHUP.rawValue | (watch ? EPOLLOUT.rawValue : 0)
    do {
      try loop.modify(descriptor, events: events)
    } catch {
      close("cannot watch socket: \(error)")
    }
  }

  private func closeAsSlowConsumer() {
    guard !closed else { return }
    state.logger.warning(
      "closing slow consumer",
      metadata: ["peer": "\(peer)", "queued_limit": "\(state.configuration.maxQueuedBytes)"])
    var notice: [UInt8] = []
    ReplyEncoder.error(
      op: nil, id: nil,
      ProtocolError(.slowConsumer, "more than \(state.configuration.maxQueuedBytes) bytes queued"),
      to: &notice)
    if let compression {
      // Compressed output is one stream: the notice can only follow what was fully written.
      guard writeOffset == writing.count else { return close("slow consumer") }
      var compressed: [UInt8] = []
      notice.withUnsafeBytes { compression.deflate($0, appendingTo: &compressed) }
      notice = compressed
    } else if writeOffset < writing.count {
      // Finish the line being written, if the socket takes it, so the notice starts a line.
      notice = writing[writeOffset...].prefix { $0 != 0x0A } + [0x0A] + notice
    }
    _ = notice.withUnsafeBytes { try? SocketCalls.send(descriptor, $0) }
    close("slow consumer")
  }

  private let descriptor: Int32
  private let outbox: Outbox
  private var framer: LineFramer
  private var session: Session?
  private var compression: WireCompression?
  private var writing: [UInt8] = []
  private var plain: [UInt8] = []
  private var writeOffset = 0
  private var watchingWritable = false
  private var closed = false
  private var peerClosed = false
}
