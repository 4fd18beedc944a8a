import CLinux
import Deflate
import Glibc
import ObservablePOSIX
import ObservableWire

/// The writing side: outbox to framing to compression to socket. Loop thread only.
extension Connection: RingWriter {
  /// Writes what the outbox holds until it is empty or the socket is full: at the end of the
  /// loop's turn, in one batch with other connections, when the loop has a send ring.
  func flush() {
    loop.assertInLoop()
    guard let ring = loop.sendRing else { return writeNow() }
    ring.enqueue(self)
  }

  /// Writes what the outbox holds, one `send` at a time, until it is empty or the socket is
  /// full.
  func writeNow() {
    loop.assertInLoop()
    while prepareWrite() {
      let sent = writing.withUnsafeBytes { bytes in
        Result { () throws(SystemError) in
          try SocketCalls.send(descriptor, UnsafeRawBufferPointer(rebasing: bytes[writeOffset...]))
        }
      }
      guard wrote(sent) else { return }
    }
  }

  /// Readies the next bytes to send, taking them from the outbox once `writing` is all sent;
  /// when nothing is left, does what the connection waits for (a close, a FIN) or stops
  /// watching for room, and returns `false`.
  func prepareWrite() -> Bool {
    loop.assertInLoop()
    while !closed {
      guard writeOffset == writing.count else { return true }
      writeOffset = 0
      takeFromOutbox()
      guard writing.isEmpty else { return true }
      if outbox.finishFlushIfIdle(inFlight: 0) {
        if peerClosed {
          close(finishing ?? "closed by peer")
        } else if finishing != nil || draining {
          // Half-closes, then reads the client's input to its end before closing.
          sendEndOfStream()
        } else {
          watchWritable(false)
        }
        return false
      }
    }
    return false
  }

  /// Calls `body` with the bytes ``prepareWrite()`` readied.
  func withUnsentBytes<Value>(_ body: (UnsafeRawBufferPointer) -> Value) -> Value {
    writing.withUnsafeBytes { body(UnsafeRawBufferPointer(rebasing: $0[writeOffset...])) }
  }

  /// Takes one send's outcome: keeps the rest of a partial send, watches for room when the
  /// socket is full, closes after an error. Returns whether to go on writing.
  func wrote(_ sent: Result<IOResult<Int>, SystemError>) -> Bool {
    loop.assertInLoop()
    switch sent {
    case .success(.done(let count)):
      writeOffset += count
      context.counters.update { $0.bytesOut += count }
      return true
    case .success(.wouldBlock):
      _ = outbox.finishFlushIfIdle(inFlight: writing.count - writeOffset)
      watchWritable(true)
      return false
    case .failure(let error):
      closeAfter(error, "write failed")
      return false
    }
  }

  /// Sends `reply` and then switches both directions to raw deflate: everything queued so far
  /// and the reply go out uncompressed, every byte after them compressed.
  ///
  /// The reply is placed here instead of being queued, because streams append to the outbox
  /// from other threads: a value queued between a queued reply and the switch would go out
  /// uncompressed after the reply, where the client already expects deflate.
  func startCompression(after reply: [UInt8]) throws(ProtocolError) {
    loop.assertInLoop()
    guard framing.allowsStreamCompression else {
      throw ProtocolError(.unsupported, "this transport compresses by its own means")
    }
    let codec: WireCompression
    do {
      codec = try WireCompression(
        level: settings.deflateLevel, flushesEachLine: settings.deflateFlushesEachLine)
    } catch {
      throw ProtocolError(.unsupported, "compression unavailable: \(error)")
    }
    moveQueuedLinesToWriting()
    writing.append(contentsOf: reply)
    context.counters.update { $0.bytesOutUncompressed += reply.count }
    compression = codec
    flush()
  }

  /// Drops what was fully written, so bytes appended to `writing` start a fresh buffer.
  func compactWriting() {
    guard writeOffset == writing.count else { return }
    writing.removeAll(keepingCapacity: true)
    writeOffset = 0
  }

  /// Moves the lines the outbox holds, framed, behind what is being written, so that bytes
  /// appended next (the `compress` reply, a WebSocket close) follow every line queued before.
  func moveQueuedLinesToWriting() {
    loop.assertInLoop()
    compactWriting()
    outbox.take(replacingWith: &plain, inFlight: writing.count - writeOffset)
    guard !plain.isEmpty else { return }
    context.counters.update { $0.bytesOutUncompressed += plain.count }
    plain.withUnsafeBytes { framing.encode($0, to: &writing) }
  }

  /// Moves what the outbox holds into `writing`, framed and compressed as the connection is.
  private func takeFromOutbox() {
    if writing.capacity > 1 << 20 { writing = [] }
    if compression == nil, framing.sendsLinesUnchanged {
      outbox.take(replacingWith: &writing, inFlight: 0)
      if !writing.isEmpty { context.counters.update { $0.bytesOutUncompressed += writing.count } }
      return
    }
    outbox.take(replacingWith: &plain, inFlight: 0)
    writing.removeAll(keepingCapacity: true)
    guard !plain.isEmpty else { return }
    context.counters.update { $0.bytesOutUncompressed += plain.count }
    plain.withUnsafeBytes { lines in
      if let compression {
        compression.deflate(lines, appendingTo: &writing)
      } else {
        framing.encode(lines, to: &writing)
      }
    }
  }

  private func watchWritable(_ watch: Bool) {
    guard watch != watchingWritable, !peerClosed, finishing == nil else { return }
    watchingWritable = watch
    let events = EPOLLIN.rawValue | EPOLLRDHUP.rawValue | (watch ? EPOLLOUT.rawValue : 0)
    do {
      try loop.modify(descriptor, events: events)
    } catch {
      close("cannot watch socket: \(error)")
    }
  }

  /// Tells the client why, if its socket takes it, and closes.
  func closeAsSlowConsumer() {
    loop.assertInLoop()
    guard !closed else { return }
    context.warnings.warn(
      .slowConsumer, "closing slow consumer",
      metadata: ["peer": "\(peer)", "queued_limit": "\(settings.maxQueuedBytes)"])
    let line = ReplyEncoder.notice(
      ProtocolError(.slowConsumer, "more than \(settings.maxQueuedBytes) bytes queued"))
    var notice: [UInt8] = []
    if let compression {
      // Compressed output is one stream: the notice can only follow what was fully written.
      guard writeOffset == writing.count else { return close("slow consumer") }
      line.withUnsafeBytes { compression.deflate($0, appendingTo: &notice) }
    } else if framing.sendsLinesUnchanged {
      // Finish the line being written, if the socket takes it, so the notice starts a line.
      if writeOffset < writing.count {
        notice = writing[writeOffset...].prefix { $0 != 0x0A } + [0x0A]
      }
      notice += line
    } else {
      // A framing that says goodbye (WebSocket) does so after the notice, once written.
      if finishAsSlowConsumer(notice: line) { return }
      // A frame cut short cannot be finished: the notice goes out only between frames.
      guard writeOffset == writing.count else { return close("slow consumer") }
      line.withUnsafeBytes { framing.encode($0, to: &notice) }
    }
    _ = notice.withUnsafeBytes { try? SocketCalls.send(descriptor, $0) }
    close("slow consumer")
  }
}
