import ObservableWire

/// `subscribe` and `unsubscribe`: a subscription's reply goes first, then its values, each
/// through the rules in force; `unsubscribe` runs that subscription's disconnect, once.
extension Session {
  func subscribe(_ request: Request) throws(ProtocolError) {
    guard let name = request.stream else {
      throw ProtocolError(.badRequest, "subscribe needs \"stream\"")
    }
    try authorizeSubscribe(name)
    if request.positions || request.since != nil {
      return try subscribeWithPositions(request, name)
    }
    let stream = try context.registry.stream(named: name)
    try checkRoom(for: name)
    // The reply goes first, so that values (a retained one, say) follow it.
    ok(request) { Self.appendStream(name, to: &$0) }
    subscriptions.insert(name, stream.subscribe(observer: permitted(observerAfterReply(), name)))
    context.logger.debug("subscribed", metadata: ["peer": "\(output.peer)", "stream": "\(name)"])
  }

  /// Refuses a second subscription to `name`, and one past `--max-subscriptions`.
  func checkRoom(for name: String) throws(ProtocolError) {
    guard !subscriptions.contains(name) else {
      throw ProtocolError(.alreadySubscribed, "already subscribed to \(name)")
    }
    guard subscriptions.count < context.maxSubscriptions else {
      context.counters.update { $0.subscriptionLimitTotal += 1 }
      throw ProtocolError(
        .limitExceeded, "at most \(context.maxSubscriptions) subscriptions per connection")
    }
  }

  func unsubscribe(_ request: Request) throws(ProtocolError) {
    guard let name = request.stream else {
      throw ProtocolError(.badRequest, "unsubscribe needs \"stream\"")
    }
    guard let subscription = subscriptions.remove(name) else {
      throw ProtocolError(.notSubscribed, "not subscribed to \(name)")
    }
    subscription.unsubscribe()
    ok(request) { Self.appendStream(name, to: &$0) }
    context.logger.debug("unsubscribed", metadata: ["peer": "\(output.peer)", "stream": "\(name)"])
  }
}
