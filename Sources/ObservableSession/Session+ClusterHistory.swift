import IndefiniteObservable
import ObservableStreams
import ObservableWire

/// Subscriptions with positions and reads of the history on a clustered server: JetStream
/// keeps the history, so they are answered once it has.
extension Session {
  /// Subscribes with positions through the cluster's history; the reply, with `recovered`
  /// for a resume or `pos` for a subscription without `since`, comes once JetStream has
  /// answered, and the values after it.
  func subscribeWithPositions(
    _ request: Request, _ name: String, _ link: any SessionCluster
  ) throws(ProtocolError) {
    try checkRoom(for: name)
    let isPattern = try checkHistoryName(name, link)
    let since = try request.since.map { text throws(ProtocolError) in
      try StreamPosition.since(text)
    }
    try checkOwed()
    let id = request.id.map { Array($0) }
    let later = laterReply()
    // The values a resume reads come before the reply can go out; all are held, as many as
    // the history gives, so that none is lost between the two.
    let observer = permitted(observerAfterReply(limit: .max), name)
    let slot = SubscriptionSlot()
    let loop = output.sessionLoop
    let session = SessionOnLoop(self)
    let detach = link.subscribeWithPositions(
      name, isPattern: isPattern, since: since, observer: observer
    ) { result in
      if case .failure = result {
        loop.execute { session.session?.forget(name, slot) }
      }
      later(
        Self.reply(op: .subscribe, id: id, result) { start, out in
          Self.appendStream(name, to: &out)
          start.appendMembers(to: &out)
        })
    }
    let counters = context.counters
    counters.update {
      $0.subscribesTotal += 1
      $0.subscriptions += 1
    }
    let subscription = Subscription {
      detach()
      counters.update {
        $0.disconnectsTotal += 1
        $0.subscriptions -= 1
      }
    }
    slot.subscription = subscription
    subscriptions.insert(name, subscription)
    context.logger.debug(
      "subscribed with positions through the cluster",
      metadata: ["peer": "\(output.peer)", "stream": "\(name)", "since": "\(request.since ?? "")"])
  }

  /// Sends the last values of a stream from the cluster's history, then the reply.
  func readHistory(_ request: Request, _ name: String, _ link: any SessionCluster)
    throws(ProtocolError)
  {
    let isPattern = try checkHistoryName(name, link)
    try checkOwed()
    let id = request.id.map { Array($0) }
    let later = laterReply()
    let loop = output.sessionLoop
    let session = SessionOnLoop(self)
    link.readHistory(name, isPattern: isPattern, limit: request.limit) { result in
      loop.execute {
        // The rules in force filter the lines, on the session's loop, as on one node.
        guard let current = session.session else { return }
        var out: [UInt8] = []
        let counted = result.map { read in
          out = current.permittedLines(read.lines, name)
          return out.count == read.lines.count
            ? read.count : out.lazy.filter { $0 == 0x0A }.count
        }
        out += Self.reply(op: .history, id: id, counted) { count, reply in
          Self.appendStream(name, to: &reply)
          ReplyEncoder.integer("count", count, to: &reply)
        }
        later(out)
      }
    }
  }

  /// Refuses a name the history cannot hold (a fixed stream), and any name when the cluster
  /// keeps none; returns whether it is a pattern.
  private func checkHistoryName(_ name: String, _ link: any SessionCluster)
    throws(ProtocolError) -> Bool
  {
    guard link.keepsHistory else {
      throw ProtocolError(.unsupported, "the server keeps no history; start it with --history N")
    }
    let isPattern = try StreamName.validatePattern(name)
    if !isPattern { try context.registry.checkTopic(name) }
    return isPattern
  }

  /// Refuses a request that would wait for the cluster behind too many others.
  private func checkOwed() throws(ProtocolError) {
    guard replyQueue.owed < ReplyQueue.owedLimit else {
      throw ProtocolError(
        .limitExceeded,
        "at most \(ReplyQueue.owedLimit) requests may wait for the cluster at once")
    }
  }

  /// Drops the subscription to `name` the cluster could not make, if it is still the one in
  /// `slot`.
  private func forget(_ name: String, _ slot: SubscriptionSlot) {
    guard let made = slot.subscription, subscriptions.subscription(named: name) === made else {
      return
    }
    _ = subscriptions.remove(name)
    made.unsubscribe()
  }
}

/// The subscription a clustered request made, for its failure to find on the session's loop.
final class SubscriptionSlot: @unchecked Sendable {
  // Unchecked: set and read on the session's loop only.
  var subscription: Subscription?
}
