import ObservableStreams
import ObservableWire

/// The requests a clustered server answers differently: retained values live in JetStream,
/// so their publish and clear are answered once the cluster has done them.
extension Session {
  /// Checks a publish against the cluster's limits and handles it when it is retained;
  /// returns whether it was handled here.
  func publishClustered(
    _ request: Request, _ name: String, _ value: UnsafeRawBufferPointer, _ link: any SessionCluster
  ) throws(ProtocolError) -> Bool {
    try link.checkSize(lineBytes: DeliveryEncoder.prefixLength(stream: name) + value.count + 2)
    if clusteredName != name {
      try context.registry.checkTopic(name)
      // Checked once: later publishes to it may be batched although no local topic exists.
      clusteredName = name
    }
    guard request.retain else { return false }
    guard replyQueue.owed < ReplyQueue.owedLimit else {
      throw ProtocolError(
        .limitExceeded,
        "at most \(ReplyQueue.owedLimit) retained publishes may wait for the cluster at once")
    }
    let id = request.id.map { Array($0) }
    let op = request.op
    let later = laterReply()
    link.storeRetained(Array(value), topic: name) { result in
      later(
        Self.reply(op: op, id: id, result) { receivers, out in
          ReplyEncoder.integer("receivers", receivers, to: &out)
        })
    }
    return true
  }

  /// Clears a retained value in JetStream and answers when it is done.
  func clearClustered(_ request: Request, _ name: String, _ link: any SessionCluster)
    throws(ProtocolError)
  {
    try context.registry.checkTopic(name)
    let id = request.id.map { Array($0) }
    let op = request.op
    let later = laterReply()
    link.clearRetained(name) { result in
      later(
        Self.reply(op: op, id: id, result) { cleared, out in
          ReplyEncoder.key("stream", to: &out)
          JSONStringEncoding.append(name, to: &out)
          ReplyEncoder.key("cleared", to: &out)
          out.append(contentsOf: (cleared ? "true" : "false").utf8)
        })
    }
  }

  /// Lists with the topics whose only trace is a retained value in JetStream, and answers
  /// once JetStream has named them (the local list alone when it cannot).
  func listClustered(_ request: Request, _ link: any SessionCluster) throws(ProtocolError) {
    let shown = try authorizeList()
    let filter = request.stream
    // A bad filter is refused now, as on a single node.
    if let filter { _ = try StreamName.validatePattern(filter) }
    guard replyQueue.owed < ReplyQueue.owedLimit else {
      throw ProtocolError(
        .limitExceeded,
        "at most \(ReplyQueue.owedLimit) requests may wait for the cluster at once")
    }
    let registry = context.registry
    let after = request.after
    let id = request.id.map { Array($0) }
    let later = laterReply()
    link.retainedTopics(matching: filter) { retained in
      let page = Result { () throws(ProtocolError) in
        try registry.listPage(
          matching: filter, after: after, limit: StreamListEncoder.pageSize,
          retained: retained ?? [])
      }
      let connected = link.isConnected
      later(
        Self.reply(op: .list, id: id, page) { page, out in
          StreamListEncoder.append(
            shown.map { page.streams.filter($0) } ?? page.streams, next: page.next,
            localOnly: { $0 != .topic || !connected }, to: &out)
        })
    }
  }

  /// For a clustered server's `list`: which streams keep their values on this node (built-in
  /// and exec streams always, topics while the NATS connection is down); `nil` otherwise.
  func localOnlyStreams() -> ((StreamKind) -> Bool)? {
    guard let link = context.cluster else { return nil }
    let connected = link.isConnected
    return { kind in kind != .topic || !connected }
  }

  /// Sends a reply now, or holds it behind replies the cluster still owes.
  func sendReply(_ reply: [UInt8]) {
    guard !ended else { return }
    guard !replyQueue.isEmpty else { return output.send(reply) }
    replyQueue.hold(reply)
    if replyQueue.heldBytes > ReplyQueue.limit {
      output.finish("too many replies waiting behind a clustered request")
    }
  }

  /// The observer for a subscription whose reply was just sent: the session's own, or, when
  /// the reply waits behind one the cluster owes, one that holds values (`limit` bytes)
  /// until it goes out.
  func observerAfterReply(limit: Int = HeldValues.limit) -> StreamObserver {
    guard !replyQueue.isEmpty else { return observer }
    let counters = context.counters
    let held = HeldValues(observer, limit: limit) { lines in
      counters.update { $0.droppedTotal += lines }
    }
    heldValues.append((replyQueue.lastTicket, held))
    return held.relay
  }

  /// Sends replies the queue let go, then the values of subscriptions whose reply was among
  /// them.
  func sendReleased(_ replies: [UInt8]) {
    guard !replies.isEmpty else { return }
    output.send(replies)
    while let first = heldValues.first, replyQueue.hasSent(first.ticket) {
      heldValues.removeFirst()
      first.values.open()
    }
  }

  /// Reserves the place of a reply the cluster gives later, and returns what to call with it
  /// from any thread: it comes back to this session's loop and goes out in request order.
  func laterReply() -> @Sendable ([UInt8]) -> Void {
    let loop = output.sessionLoop
    let ticket = replyQueue.reserve()
    let session = SessionOnLoop(self)
    return { reply in
      loop.execute {
        guard let session = session.session else { return }
        session.sendReleased(session.replyQueue.fill(ticket, with: reply))
      }
    }
  }

  /// The reply line for an answer that came later, from another thread; it goes out through
  /// the session's observer, which any thread may call.
  static func reply<Value>(
    op: RequestOp, id: [UInt8]?, _ result: Result<Value, ProtocolError>,
    fields: (Value, inout [UInt8]) -> Void
  ) -> [UInt8] {
    var line: [UInt8] = []
    func write(_ id: UnsafeRawBufferPointer?) {
      switch result {
      case .success(let value): ReplyEncoder.ok(op: op, id: id, to: &line) { fields(value, &$0) }
      case .failure(let error): ReplyEncoder.error(op: op.rawValue, id: id, error, to: &line)
      }
    }
    if let id { id.withUnsafeBytes { write($0) } } else { write(nil) }
    return line
  }
}

/// A session reference carried through another thread back to the session's own loop.
final class SessionOnLoop: @unchecked Sendable {
  // Unchecked: created on the session's loop and read only in tasks run on that loop.
  weak var session: Session?

  init(_ session: Session) {
    self.session = session
  }
}
