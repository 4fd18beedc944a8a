/// The client's last will: kept in the state so that every connection registers it again.
extension ClientCore {
  /// The will a client keeps: the topic, and the `will` request that registers it.
  struct Will: Equatable {
    let stream: String
    let line: [UInt8]
  }

  /// Keeps `will` (or none, to withdraw) as the will every connection registers, and sends it,
  /// or the withdrawal, on the current connection, waiting for the reply. A will the server
  /// refuses is forgotten. Without a connection, the next one registers it: a will then fails
  /// with ``ClientError/notConnected``, a withdrawal succeeds (no connection holds a will).
  func registerWill(_ will: Will?) async -> Result<Void, ClientError> {
    let result = await withCheckedContinuation {
      (continuation: CheckedContinuation<Result<Void, ClientError>, Never>) in
      // Under the writer lock, as `install` is: a new connection registers either the old
      // will or this one, and this request then goes to that connection.
      let outcome = writer.withLock { writer -> Result<Void, ClientError>? in
        let (previous, closed) = state.withLock { state in
          defer { if !state.closed { state.will = will } }
          return (state.will, state.closed)
        }
        if closed { return .failure(.closed) }
        guard let writer else { return will == nil ? .success(()) : .failure(.notConnected) }
        guard let line = will?.line ?? previous.map({ RequestLine.withdrawWill($0.stream) }) else {
          return .success(())
        }
        state.withLock {
          $0.pending.append(.willRequest(continuation))
          $0.sent["will", default: 0] += 1
        }
        writer.send(line)
        return nil
      }
      if let outcome { continuation.resume(returning: outcome) }
    }
    if case .failure(.server) = result, let will {
      state.withLock { state in
        if state.will == will { state.will = nil }
      }
    }
    return result
  }

  /// Sends the will on a new connection (from `install`, under the writer lock); nobody awaits
  /// its reply, which is logged when the server refuses it.
  func sendWill(on writer: SocketWriter) {
    let line = state.withLock { state -> [UInt8]? in
      guard let will = state.will else { return nil }
      state.pending.append(.will(will.stream))
      state.sent["will", default: 0] += 1
      return will.line
    }
    if let line { writer.send(line) }
  }
}
