import ObservableWire

/// `get`: one topic's retained value, read without subscribing, so nothing connects, and no
/// topic is made for a name nobody used.
extension Session {
  /// Sends the retained delivery line of the request's stream, when it has one, then the
  /// reply with `"count"` 1 or 0; the same rules as a subscription decide who may read it.
  func readRetained(_ request: Request) throws(ProtocolError) {
    guard let name = request.stream else {
      throw ProtocolError(.badRequest, "get needs \"stream\"")
    }
    try authorizeSubscribe(name)
    let line = permittedLines(try context.registry.retainedLine(of: name) ?? [], name)
    if !line.isEmpty { sendReply(line) }
    ok(request) {
      Self.appendStream(name, to: &$0)
      ReplyEncoder.integer("count", line.isEmpty ? 0 : 1, to: &$0)
    }
  }
}
