import ObservableStreams
import ObservableWire

/// Retained publishes and clears with a store on disk (`--data-dir`): applied at once, as
/// without one, and written by the store's thread. The reply goes now, or, with `--fsync
/// always` (and while the store recovers from a failed write), once the change is durable;
/// either way the loop never waits for the disk.
extension Session {
  /// A retained publish: refused with `unavailable` when the store cannot take it, applied
  /// (delivered and retained) otherwise, and written.
  func publishStored(
    _ request: Request, _ name: String, _ value: UnsafeRawBufferPointer, _ store: any SessionStore
  ) throws(ProtocolError) {
    try store.checkAccepting()
    try checkOwedReplies(store)
    // Encoded once: the topic retains the same line the store writes.
    let line = DeliveryEncoder.line(stream: name, rawValue: value)
    let receivers = try context.registry.publish(line: line, to: name, retain: true)
    let encoded = request.id == nil ? retainedReply(receivers) : nil
    writeAndReply(request, line, name, store, receivers, encoded: encoded) { receivers, out in
      ReplyEncoder.integer("receivers", receivers, to: &out)
    }
  }

  /// The `ok` reply to a retained publish without an `id` that reached `receivers`: the same
  /// bytes for every such publish with as many receivers, so encoded once and shared. Encoded
  /// for each publish, it was about a sixth of the loop's work on one (Docs/performance.md,
  /// the store's figures).
  private func retainedReply(_ receivers: Int) -> [UInt8] {
    if lastRetainedReply.receivers != receivers {
      var line: [UInt8] = []
      ReplyEncoder.ok(op: .publish, id: nil, to: &line) {
        ReplyEncoder.integer("receivers", receivers, to: &$0)
      }
      lastRetainedReply = (receivers, line)
    }
    return lastRetainedReply.line
  }

  /// A clear: refused with `unavailable` when the store cannot take it; otherwise the value
  /// is forgotten now and on disk.
  func clearStored(_ request: Request, _ name: String, _ store: any SessionStore)
    throws(ProtocolError)
  {
    try store.checkAccepting()
    try checkOwedReplies(store)
    let cleared = try context.registry.clearRetained(name)
    let fields: @Sendable (Bool, inout [UInt8]) -> Void = { cleared, out in
      Self.appendStream(name, to: &out)
      ReplyEncoder.key("cleared", to: &out)
      out.append(contentsOf: (cleared ? "true" : "false").utf8)
    }
    // Nothing changed, so there is nothing to write.
    guard cleared else { return ok(request) { fields(false, &$0) } }
    writeAndReply(request, nil, name, store, true, fields: fields)
  }

  /// Refuses one more reply waiting for the disk past the limit of replies a connection may be
  /// owed, as for the cluster.
  private func checkOwedReplies(_ store: any SessionStore) throws(ProtocolError) {
    guard store.repliesWaitForDisk, replyQueue.owed >= ReplyQueue.owedLimit else { return }
    throw ProtocolError(
      .limitExceeded,
      "at most \(ReplyQueue.owedLimit) retained publishes and clears may wait for the disk at once")
  }

  /// Applies nothing more: queues `line` (or the clear, when `nil`) for the store with the
  /// rest of this read, and replies with `answer`'s `fields` (`encoded`, when given, is that
  /// reply already made), now, or once the change is durable when replies wait for the disk,
  /// with `unavailable` if it fails.
  private func writeAndReply<Value: Sendable>(
    _ request: Request, _ line: [UInt8]?, _ name: String, _ store: any SessionStore,
    _ answer: Value, encoded: [UInt8]? = nil,
    fields: @escaping @Sendable (Value, inout [UInt8]) -> Void
  ) {
    let write = StoreWrite(line: line, topic: name)
    guard store.repliesWaitForDisk else {
      storeWrites.append(write, reply: nil)
      if let encoded { return sendReply(encoded) }
      // In the session's reply buffer, as any reply sent at once: a new array per publish,
      // grown as it was filled, was a seventh of the loop's work on a retained publish.
      return ok(request) { fields(answer, &$0) }
    }
    let (op, id) = (request.op, request.id.map { Array($0) })
    let waiting = StoreWriteGroup.WaitingReply(ticket: replyQueue.reserve()) { written in
      if let encoded, case .success = written { return encoded }
      return Self.reply(op: op, id: id, written.map { answer }, fields: fields)
    }
    storeWrites.append(write, reply: waiting)
    // Handed over before the read's end, the first of a pipelining client's publishes are
    // written and synced while the loop reads the rest, and their replies bring the client's
    // next publishes sooner; one group per read kept the loop, the writer and the sync in turn.
    if storeWrites.replies.count >= StoreWriteGroup.handOffCount { flushStoreWrites() }
  }

  /// Hands the retained changes of the input just handled to the store, as one group; their
  /// waiting replies go out together, on this session's loop, once the group is written.
  ///
  /// A group the queue has no room for is kept by the store to write later (and refuses the
  /// next retained publishes until then); replies that waited say `unavailable`, those sent
  /// already said `ok`: the change is applied and will be written.
  func flushStoreWrites() {
    guard !storeWrites.isEmpty, let store = context.store else { return }
    let group = storeWrites.take()
    guard !group.replies.isEmpty else {
      _ = store.write(group.writes, completion: nil)
      return
    }
    let (loop, session, replies) = (output.sessionLoop, SessionOnLoop(self), group.replies)
    let answer: @Sendable (Result<Void, ProtocolError>) -> Void = { written in
      loop.execute {
        guard let session = session.session else { return }
        session.sendReleased(
          session.replyQueue.fill(replies.map { (ticket: $0.ticket, reply: $0.reply(written)) }))
      }
    }
    if !store.write(group.writes, completion: answer) { answer(.failure(Self.notQueued)) }
  }

  /// The error of a change the store's queue had no room for.
  static var notQueued: ProtocolError {
    ProtocolError(
      .unavailable,
      "the store's write queue is full; the change is kept in memory and written once it drains")
  }
}
