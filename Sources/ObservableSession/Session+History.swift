import ObservableStreams
import ObservableWire

/// The requests of topic history: `subscribe` with `"pos":true` or `"since"`, and `history`.
extension Session {
  /// Subscribes with a position on every delivery, resuming after `since` when given; the
  /// reply says `"recovered"` for a resume, and `"pos"`, where it starts, for a subscription
  /// without `since`.
  func subscribeWithPositions(_ request: Request, _ name: String) throws(ProtocolError) {
    if let link = context.cluster { return try subscribeWithPositions(request, name, link) }
    try checkRoom(for: name)
    let subscription = try context.registry.subscribeWithPositions(
      name, since: request.since, observer: permitted(observerAfterReply(), name)
    ) { start in
      ok(request) {
        Self.appendStream(name, to: &$0)
        start.appendMembers(to: &$0)
      }
    }
    subscriptions.insert(name, subscription)
    context.logger.debug(
      "subscribed with positions",
      metadata: ["peer": "\(output.peer)", "stream": "\(name)", "since": "\(request.since ?? "")"])
  }

  /// Sends the last values of a stream, oldest first, each with its position, then the reply
  /// with how many there were.
  func readHistory(_ request: Request) throws(ProtocolError) {
    guard let name = request.stream else {
      throw ProtocolError(.badRequest, "history needs \"stream\"")
    }
    // Reading history is receiving: the same rules as a subscription, a pattern allowed in
    // part giving only the topics the user may receive.
    try authorizeSubscribe(name)
    if let link = context.cluster { return try readHistory(request, name, link) }
    let read = try context.registry.readHistory(name, limit: request.limit)
    let lines = permittedLines(read.lines, name)
    if !lines.isEmpty { sendReply(lines) }
    ok(request) {
      Self.appendStream(name, to: &$0)
      let count =
        lines.count == read.lines.count ? read.count : lines.lazy.filter { $0 == 0x0A }.count
      ReplyEncoder.integer("count", count, to: &$0)
    }
  }

  /// Whether the greeting lists the feature `history`.
  package var keepsHistory: Bool {
    context.registry.history != nil || context.cluster?.keepsHistory == true
  }
}
