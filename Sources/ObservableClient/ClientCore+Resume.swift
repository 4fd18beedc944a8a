import IndefiniteObservable

/// Resuming subscriptions from their last position, reporting the gaps a resume could not
/// fill, and reading history.
extension ClientCore {
  /// Adds an observer of resume gaps.
  func addGapObserver(_ observer: ValueObserver<ResumeGap>) -> Int {
    // One counter numbers the observers of both books; an id is only a key in its own book.
    state.withLock { state in
      state.nextStateObserver += 1
      state.gapObservers[state.nextStateObserver] = observer
      return state.nextStateObserver
    }
  }

  /// Removes an observer of resume gaps.
  func removeGapObserver(_ id: Int) {
    state.withLock { _ = $0.gapObservers.removeValue(forKey: id) }
  }

  /// Logs `gap` and tells its observers; called on the connection thread, outside the locks,
  /// before the values the resume brings are delivered.
  func report(_ gap: ResumeGap) {
    logger.warning(
      "resumed a subscription with a gap: values published while it was away are lost",
      metadata: [
        "stream": "\(gap.subscription)", "since": "\(gap.since)", "cause": "\(gap.cause)",
      ])
    let observers = state.withLock { Array($0.gapObservers.values) }
    for observer in observers { observer.next(gap) }
  }

  /// Reports the gap a clustered server's notice announces: values of `subscription` after
  /// its last position are gone, lost while it was connected.
  func reportLoss(of subscription: String) {
    let since = state.withLock { $0.book.position(of: subscription) } ?? ""
    report(ResumeGap(subscription: subscription, since: since, cause: .historyEvicted))
  }

  /// The gap, if any, that the reply to a subscribe of `name` after `since` reveals.
  static func gap(
    _ name: String, since: String?, resumable: Bool, reply: ServerLine
  ) -> ResumeGap? {
    guard let since, reply.ok == true else { return nil }
    if !resumable { return ResumeGap(subscription: name, since: since, cause: .noHistory) }
    guard reply.recovered == false else { return nil }
    return ResumeGap(subscription: name, since: since, cause: .historyEvicted)
  }

  /// Sends `history` for `name` and waits for its lines and reply; fails at once when not
  /// connected.
  func readHistory(_ name: String, limit: Int?) async -> Result<[Delivery], ClientError> {
    await withCheckedContinuation { continuation in
      let queued = writer.withLock { writer -> Bool in
        guard let writer else { return false }
        state.withLock {
          $0.pending.append(.history(name, limit: limit, continuation))
          $0.sent["history", default: 0] += 1
        }
        writer.send(RequestLine.history(name, limit: limit))
        return true
      }
      if !queued {
        continuation.resume(returning: .failure(isClosed ? .closed : .notConnected))
      }
    }
  }
}

extension ClientCore.State {
  /// Records that `name`'s subscribe goes on the wire now and returns its line: with positions
  /// when the server keeps history, resuming after the subscription's last position if it has
  /// one.
  mutating func subscribeRequest(_ name: String) -> [UInt8] {
    book.setOnWire(name, true)
    let since = book.position(of: name)
    pending.append(.subscribe(name, since: since, resumable: serverKeepsHistory))
    sent["subscribe", default: 0] += 1
    return RequestLine.subscribe(
      name, positions: serverKeepsHistory, since: serverKeepsHistory ? since : nil)
  }

}
