import NATS

/// What the connection does with the session's events, and requests with their replies.
/// Loop only.
extension ClusterConnection {
  /// Acts on events from the session, after its lock is released: the connection's own, and
  /// a new connection and messages for the link.
  func handle(_ events: [NATSSessionEvent]) {
    link.assertOnLoop()
    for event in events {
      switch event {
      case .connected(let info):
        let server = link.state.withLock { $0.session.servers.current.map { "\($0)" } ?? "?" }
        link.logger.notice(
          "cluster connected",
          metadata: [
            "server": "\(server)", "name": "\(info.serverName)",
            "jetstream": "\(info.jetStream)",
          ])
        link.connected(info)
      case .serverInfo(let info):
        if info.lameDuckMode {
          link.logger.notice(
            "cluster server entering lame duck mode", metadata: ["name": "\(info.serverName)"])
        }
      case .message(let message):
        link.received(message)
      case .reply(let id, let result):
        replies.removeValue(forKey: id)?(result)
      case .serverError(let text):
        link.logger.warning("cluster server error", metadata: ["error": "\(text)"])
      case .dead(let failure):
        connectionLost("\(failure)")
      }
    }
  }

  /// Sends a request and keeps what to do with its reply; `false` when it could not be sent.
  @discardableResult
  func request(
    _ subject: String, headers: NATSHeaders? = nil, payload: [UInt8],
    timeout: Duration = .seconds(2),
    then completion: @escaping (Result<NATSMessage, NATSRequestError>) -> Void
  ) throws(NATSCommandError) -> NATSRequestID {
    let sent = link.state.withLock { state -> Result<NATSRequestID, NATSCommandError> in
      do throws(NATSCommandError) {
        return .success(
          try state.session.request(
            subject: subject, headers: headers, payload: payload, timeout: timeout, now: .now))
      } catch {
        return .failure(error)
      }
    }
    let id = try sent.get()
    replies[id] = completion
    flush()
    return id
  }
}
