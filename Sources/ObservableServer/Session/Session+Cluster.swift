/// The requests a clustered server answers differently: retained values live in JetStream,
/// so their publish and clear are answered once the cluster has done them.
extension Session {
  /// Checks a publish against the cluster's limits and handles it when it is retained;
  /// returns whether it was handled here.
  func publishClustered(
    _ request: Request, _ name: String, _ value: UnsafeRawBufferPointer, _ link: ClusterLink
  ) throws(ProtocolError) -> Bool {
    try link.checkSize(lineBytes: DeliveryEncoder.prefixLength(stream: name) + value.count + 2)
    guard request.retain else { return false }
    try context.registry.checkTopic(name)
    let observer = observer
    let id = request.id.map { Array($0) }
    let op = request.op
    link.storeRetained(Array(value), topic: name) { result in
      observer.next(
        Self.reply(op: op, id: id, result) { receivers, out in
          ReplyEncoder.integer("receivers", receivers, to: &out)
        })
    }
    return true
  }

  /// Clears a retained value in JetStream and answers when it is done.
  func clearClustered(_ request: Request, _ name: String, _ link: ClusterLink)
    throws(ProtocolError)
  {
    try context.registry.checkTopic(name)
    let observer = observer
    let id = request.id.map { Array($0) }
    let op = request.op
    link.clearRetained(name) { result in
      observer.next(
        Self.reply(op: op, id: id, result) { cleared, out in
          ReplyEncoder.key("stream", to: &out)
          JSONStringEncoding.append(name, to: &out)
          ReplyEncoder.key("cleared", to: &out)
          out.append(contentsOf: (cleared ? "true" : "false").utf8)
        })
    }
  }

  /// The reply line for an answer that came later, from another thread; it goes out through
  /// the session's observer, which any thread may call.
  private static func reply<Value>(
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
