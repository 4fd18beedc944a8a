import ObservableAuthorization
import ObservableStreams
import ObservableWire

/// Authorization: each request of a restricted user is checked against their rules, and
/// refused with `forbidden` (the connection stays usable). A connection with every permission
/// (`--token`, or no credentials configured) skips the checks.
extension Session {
  /// Refuses a publish, retain or clear of `name` that the user may not make.
  func authorizePublish(_ name: String) throws(ProtocolError) {
    guard !access.isUnrestricted, !access.mayPublish(name, policy: context.access) else { return }
    // A name that is not one at all gets `bad_name`, as for anyone.
    try StreamName.validate(name)
    throw forbidden("publish to \(name)")
  }

  /// Refuses a subscription of which the user may receive nothing.
  func authorizeSubscribe(_ name: String) throws(ProtocolError) {
    guard !access.isUnrestricted else { return }
    if access.subscribeScope(name, policy: context.access) == .none {
      throw forbidden("subscribe to \(name)")
    }
  }

  /// Refuses `list` to a user without the permission; otherwise returns what decides which
  /// streams the reply shows (those the user may subscribe to), `nil` to show all.
  func authorizeList() throws(ProtocolError) -> (
    @Sendable ((name: String, kind: StreamKind, subscribers: Int)) -> Bool
  )? {
    guard !access.isUnrestricted else { return nil }
    access.refresh(context.access)
    guard access.permissions.list else { throw forbidden("list streams") }
    let permissions = access.permissions
    return { permissions.mayReceive($0.name) }
  }

  /// The observer for a subscription to `name`: `observer` itself for a user with every
  /// permission or a concrete name the user may receive, else one that passes only what the
  /// rules in force allow.
  ///
  /// A concrete name is allowed whole or not at all, so its values need no check each: the
  /// only change a reload can make is to forbid it, and ``authorizationReloaded()`` then ends
  /// the subscription on this loop before the reload returns. A filter would cost every
  /// delivery a call through a closure, the rules' generation read through an existential and
  /// an atomic load. A pattern keeps its filter: a reload may allow it only in part, and a
  /// stream cannot swap the observer of a running subscription.
  func permitted(_ observer: StreamObserver, _ name: String) -> StreamObserver {
    guard let identity = access.identity, !access.isUnrestricted else { return observer }
    if !RulePattern(trusted: name).hasWildcards,
      access.subscribeScope(name, policy: context.access) == .all
    {
      return observer
    }
    let filter = SubscriptionFilter(pattern: name, identity: identity, policy: context.access)
    return StreamObserver { lines in
      if let kept = filter.permitted(lines) { observer.next(kept) }
    }
  }

  /// The lines of `lines`, whole delivery lines for `name`, that the rules in force let the
  /// user receive: all of them for a user with every permission.
  func permittedLines(_ lines: [UInt8], _ name: String) -> [UInt8] {
    guard let identity = access.identity, !access.isUnrestricted, !lines.isEmpty else {
      return lines
    }
    let filter = SubscriptionFilter(pattern: name, identity: identity, policy: context.access)
    return filter.permitted(lines) ?? []
  }

  /// The rules were reloaded: each subscription they no longer allow at all ends (its
  /// disconnect runs once) with a notice; one allowed in part is filtered from now on.
  ///
  /// The subscription to a concrete name has no filter (see ``permitted(_:_:)``), so until
  /// this runs it delivers under the old rules: the server waits for every loop to run it
  /// before it reports the reload done.
  package func authorizationReloaded() {
    guard !access.isUnrestricted, !closing else { return }
    access.refresh(context.access)
    // The refresh makes the decisions current, which would let a batch of the last topic go on.
    forgetPublishedTopic()
    for name in subscriptions.names
    where access.subscribeScope(name, policy: context.access) == .none {
      guard let subscription = subscriptions.remove(name) else { continue }
      subscription.unsubscribe()
      output.send(
        ReplyEncoder.notice(
          ProtocolError(.forbidden, "the subscription to \(name) ended: the rules changed")))
      context.logger.debug(
        "subscription ended by a reload",
        metadata: ["peer": "\(output.peer)", "stream": "\(name)"])
    }
  }

  /// Counts and logs (at debug, at a bounded rate, without any credential) a refused request.
  private func forbidden(_ what: String) -> ProtocolError {
    context.counters.update { $0.forbiddenTotal += 1 }
    let user = access.identity?.name ?? "-"
    context.warnings.warn(
      .forbidden, "forbidden",
      metadata: ["peer": "\(output.peer)", "user": "\(user)", "request": "\(what)"])
    return ProtocolError(.forbidden, "\(user) may not \(what)")
  }
}
