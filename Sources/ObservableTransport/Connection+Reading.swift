import CLinux
import Glibc
import ObservablePOSIX

/// The reading side: socket to compression to framing to session. Loop thread only.
extension Connection {
  /// Reads what the socket holds and hands it to the framing, within the connection's
  /// ``ReadBudget`` for this turn.
  func readAvailable() {
    loop.assertInLoop()
    let start = ContinuousClock.now
    let slice = ReadBudget.slice(sharedBy: loop.readersThisTurn)
    var last = start
    for _ in 0..<ReadBudget.mostReads {
      // Past the server-wide bound on queued output, each connection reads only a little, once
      // a turn, until a cut has closed the largest queues: publishers then add little, and a
      // client that only pings is still answered. Pausing every read instead starved it for
      // seconds behind publishers that passed the bound again at once.
      let crowded = home.queuedOutput.isOverLimit
      if crowded { home.queuedOutput.cutIfOverLimit() }
      let size = crowded ? ReadBudget.smallestRead : readBudget.readSize
      let buffer =
        output.tls == nil
        ? UnsafeMutableRawBufferPointer(rebasing: loop.readBuffer[0..<size])
        : ConnectionTLS.ciphertextBuffer(in: loop.readBuffer, size: size)
      let result: IOResult<Int>
      do {
        result = try SocketCalls.read(descriptor, into: buffer)
      } catch {
        closeAfter(error, "read failed")
        return
      }
      switch result {
      case .wouldBlock:
        return
      case .done(0):
        if let tls = output.tls { return receiveEndOfStream(through: tls) }
        finishAfterPeerClosed()
        return
      case .done(let count):
        context.counters.update { $0.bytesIn += count }
        if let tls = output.tls {
          receiveEncrypted(UnsafeRawBufferPointer(rebasing: buffer[0..<count]), through: tls)
        } else {
          receive(UnsafeRawBufferPointer(rebasing: loop.readBuffer[0..<count]))
        }
        if lifecycle.isClosed { return }
        session?.inputHandled()
        let now = ContinuousClock.now
        if !crowded { readBudget.record(read: count, took: now - last, slice: slice) }
        last = now
        // A short read emptied the socket: another read would only say so, one system call per
        // wake-up later, and the level-triggered loop reports whatever arrives next.
        if crowded || count < buffer.count || now - start >= slice { return }
      }
    }
  }

  /// Hands plaintext (as read, or as TLS decrypted it) to deflate and the framing.
  func receive(_ bytes: UnsafeRawBufferPointer) {
    if let compression = output.compression {
      do {
        try compression.inflate(bytes) { decode($0) }
      } catch {
        context.warnings.warn(
          .corruptInput, "corrupt compressed input",
          metadata: ["peer": "\(peer)", "error": "\(error)"])
        close("corrupt compressed input")
      }
      return
    }
    let before = framing
    let consumed = decode(bytes)
    // A `compress` request switched the rest of this read to deflate, or an upgrade to frames.
    if consumed < bytes.count, !lifecycle.isClosed,
      output.compression != nil || framing !== before
    {
      receive(UnsafeRawBufferPointer(rebasing: bytes[consumed...]))
    }
  }

  @discardableResult
  private func decode(_ bytes: UnsafeRawBufferPointer) -> Int {
    guard !lifecycle.isClosed else { return bytes.count }
    return framing.decode(bytes) { act(on: $0) }
  }

  /// The client closed its side: it observes nothing any more, but the replies to what it sent
  /// last still go out (`echo list | nc -N host port` prints the list) before the socket closes.
  func finishAfterPeerClosed() {
    loop.assertInLoop()
    session?.unsubscribeAll()
    _ = lifecycle.peerSentEndOfStream()
    do {
      try socket.watchWritableOnly(on: loop)
    } catch {
      return close("closed by peer")
    }
    flush()
    guard !lifecycle.isClosed else { return }
    // A client that never reads again must not hold the socket open for ever.
    schedule(in: settings.halfCloseGrace) { [self] in
      close("closed by peer; unsent replies dropped")
    }
  }
}
