import ObservableWire

extension Session {
  /// Sends the `ok` reply to `request`, with the fields `fields` appends; the reply buffer is
  /// reused from one request to the next.
  func ok(_ request: Request, fields: (inout [UInt8]) -> Void = { _ in }) {
    reply.removeAll(keepingCapacity: true)
    ReplyEncoder.ok(op: request.op, id: request.id, to: &reply, fields: fields)
    sendReply(reply)
  }

  /// Appends `"stream":NAME` (or another key) to a reply being built.
  static func appendStream(
    _ name: String, key: StaticString = "stream", to out: inout [UInt8]
  ) {
    ReplyEncoder.key(key, to: &out)
    JSONStringEncoding.append(name, to: &out)
  }
}
