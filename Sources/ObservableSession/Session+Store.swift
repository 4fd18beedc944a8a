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
    let receivers = try context.registry.publish(value, to: name, retain: true)
    let line = DeliveryEncoder.line(stream: name, rawValue: value)
    writeAndReply(request, line, name, store, Result<Int, ProtocolError>.success(receivers)) {
      receivers, out in ReplyEncoder.integer("receivers", receivers, to: &out)
    }
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
    writeAndReply(request, nil, name, store, .success(true), fields: fields)
  }

  /// Refuses one more reply waiting for the disk past the limit of replies a connection may be
  /// owed, as for the cluster.
  private func checkOwedReplies(_ store: any SessionStore) throws(ProtocolError) {
    guard store.repliesWaitForDisk, replyQueue.owed >= ReplyQueue.owedLimit else { return }
    throw ProtocolError(
      .limitExceeded,
      "at most \(ReplyQueue.owedLimit) retained publishes and clears may wait for the disk at once")
  }

  /// Writes `line` (or the clear, when `nil`) and replies with `answer`: now, or once the
  /// change is durable when replies wait for the disk, with `unavailable` if it fails.
  private func writeAndReply<Value: Sendable>(
    _ request: Request, _ line: [UInt8]?, _ name: String, _ store: any SessionStore,
    _ answer: Result<Value, ProtocolError>,
    fields: @escaping @Sendable (Value, inout [UInt8]) -> Void
  ) {
    let op = request.op
    let id = request.id.map { Array($0) }
    guard store.repliesWaitForDisk else {
      let queued = store.write(line, topic: name, completion: nil)
      let result = queued ? answer : .failure(Self.notQueued)
      return sendReply(Self.reply(op: op, id: id, result, fields: fields))
    }
    let later = laterReply()
    let queued = store.write(line, topic: name) { written in
      later(Self.reply(op: op, id: id, written.flatMap { answer }, fields: fields))
    }
    if !queued {
      later(Self.reply(op: op, id: id, Result<Value, _>.failure(Self.notQueued), fields: fields))
    }
  }

  /// The error of a change the store's queue had no room for.
  private static var notQueued: ProtocolError {
    ProtocolError(
      .unavailable,
      "the store's write queue is full; the change is kept in memory and written once it drains")
  }
}
