import CLinux
import Glibc

/// The reading side: socket to compression to framing to session. Loop thread only.
extension Connection {
  /// Reads what the socket holds and hands it to the framing, a few reads at most.
  func readAvailable() {
    loop.assertInLoop()
    // A bounded number of reads per wake-up, so one busy client cannot starve the others.
    for _ in 0..<4 {
      let result: IOResult<Int>
      do {
        result = try SocketCalls.read(descriptor, into: loop.readBuffer)
      } catch {
        closeAfter(error, "read failed")
        return
      }
      switch result {
      case .wouldBlock:
        return
      case .done(0):
        finishAfterPeerClosed()
        return
      case .done(let count):
        context.counters.update { $0.bytesIn += count }
        receive(UnsafeRawBufferPointer(rebasing: loop.readBuffer[0..<count]))
        if closed { return }
        session?.inputHandled()
        // A short read emptied the socket: another read would only say so, one system call per
        // wake-up later, and the level-triggered loop reports whatever arrives next.
        if count < loop.readBuffer.count { return }
      }
    }
  }

  private func receive(_ bytes: UnsafeRawBufferPointer) {
    if let compression {
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
    if consumed < bytes.count, !closed, compression != nil || framing !== before {
      receive(UnsafeRawBufferPointer(rebasing: bytes[consumed...]))
    }
  }

  @discardableResult
  private func decode(_ bytes: UnsafeRawBufferPointer) -> Int {
    guard !closed else { return bytes.count }
    return framing.decode(bytes, to: session)
  }

  /// The client closed its side: it observes nothing any more, but the replies to what it sent
  /// last still go out (`echo list | nc -N host port` prints the list) before the socket closes.
  func finishAfterPeerClosed() {
    loop.assertInLoop()
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
    schedule(in: settings.halfCloseGrace) { [self] in
      close("closed by peer; unsent replies dropped")
    }
  }
}
