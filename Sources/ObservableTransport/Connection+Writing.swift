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

  /// Writes what the outbox holds, one `sendmsg` at a time, until it is empty or the socket
  /// is full: a `sendmsg` gathers the shared chunks queued, so none is copied.
  package func writeNow() {
    loop.assertInLoop()
    while prepareWrite() {
      let sent = withUnsafeTemporaryAllocation(of: iovec.self, capacity: SendRing.piecesPerSend) {
        pieces in
        let filled = output.gatherUnsent(into: pieces)
        return Result { () throws(SystemError) in
          try socket.send(UnsafeMutableBufferPointer(rebasing: pieces[..<filled]))
        }
      }
      guard wrote(sent) else { return }
    }
  }

  /// Readies the next bytes to send, taking them from the outbox once `writing` is all sent;
  /// when nothing is left, does what the connection waits for (a close, a FIN) or stops
  /// watching for room, and returns `false`.
  package func prepareWrite() -> Bool {
    loop.assertInLoop()
    if let tls = output.tls, !tls.isReady { return prepareTLSHandshakeWrite(tls) }
    while !lifecycle.isClosed {
      guard output.isAllSent else { return true }
      let taken = output.refill(from: outbox, framing: framing)
      if taken > 0 { context.counters.update { $0.bytesOutUncompressed += taken } }
      guard output.isAllSent else { return true }
      if outbox.finishFlushIfIdle(inFlight: 0) {
        switch lifecycle.state {
        case .peerClosed(let reason):
          sayCloseNotify()
          close(reason ?? "closed by peer")
        // Half-closes, then reads the client's input to its end before closing.
        case .draining, .finishing: sendEndOfStream()
        case .open, .closed: watchWritable(false)
        }
        return false
      }
    }
    return false
  }

  /// How many of the bytes ``prepareWrite()`` readied are not sent yet.
  package var unsentCount: Int { output.unsentCount }

  /// Points `pieces` at the bytes ``prepareWrite()`` readied and not sent yet, as they lie,
  /// and keeps them there until ``sendSettled()``.
  package func gatherUnsent(into pieces: UnsafeMutableBufferPointer<iovec>) -> Int {
    sendInFlight = output.held
    return output.gatherUnsent(into: pieces)
  }

  /// Lets go of the bytes of the ring's send, which has completed or was withdrawn.
  package func sendSettled() {
    sendInFlight = nil
  }

  /// Takes one send's outcome: keeps the rest of a partial send, watches for room when the
  /// socket is full, closes after an error. Returns whether to go on writing.
  package func wrote(_ sent: Result<IOResult<Int>, SystemError>) -> Bool {
    loop.assertInLoop()
    switch sent {
    case .success(.done(let count)):
      output.sent(count)
      context.counters.update { $0.bytesOut += count }
      return true
    case .success(.wouldBlock):
      _ = outbox.finishFlushIfIdle(inFlight: output.unsentCount)
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
  package func startCompression(after reply: [UInt8]) throws(ProtocolError) {
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
    output.append(reply)
    context.counters.update { $0.bytesOutUncompressed += reply.count }
    output.compression = codec
    flush()
  }

  /// Moves the lines the outbox holds, framed, behind what is being written, so that bytes
  /// appended next (the `compress` reply, a WebSocket close) follow every line queued before.
  func moveQueuedLinesToWriting() {
    loop.assertInLoop()
    let moved = output.moveQueuedLines(from: outbox, framing: framing)
    if moved > 0 { context.counters.update { $0.bytesOutUncompressed += moved } }
  }

  func watchWritable(_ watch: Bool) {
    guard watch != watchingWritable, lifecycle.watchesWritabilityOnDemand else { return }
    watchingWritable = watch
    do {
      try socket.watch(writable: watch, on: loop)
    } catch {
      close("cannot watch socket: \(error)")
    }
  }

  /// Tells the client why, if its socket takes it, and closes.
  func closeAsSlowConsumer() {
    loop.assertInLoop()
    guard !lifecycle.isClosed else { return }
    context.warnings.warn(
      .slowConsumer, "closing slow consumer",
      metadata: ["peer": "\(peer)", "queued_limit": "\(settings.maxQueuedBytes)"])
    let line = ReplyEncoder.notice(
      ProtocolError(.slowConsumer, "more than \(settings.maxQueuedBytes) bytes queued"))
    // A framing that says goodbye (WebSocket) does so after the notice, once written.
    if output.compression == nil, !framing.sendsLinesUnchanged,
      finishAsSlowConsumer(notice: line)
    {
      return
    }
    guard let notice = output.slowConsumerNotice(line, framing: framing) else {
      return close("slow consumer")
    }
    socket.sendNow(notice)
    close("slow consumer")
  }
}
