/// What one user may do: subscribe and publish rules, and the two permissions that are not
/// topics, reading the built-in `stats` stream and listing streams.
///
/// `publish` covers retaining and clearing a retained value too: each writes the topic.
package struct Permissions: Sendable, Equatable {
  /// The topics the user may subscribe to (and see in `list`).
  package var subscribe: PermissionRules
  /// The topics the user may publish to, retain on and clear.
  package var publish: PermissionRules
  /// Whether the user may subscribe to the built-in `stats` stream.
  package var stats: Bool
  /// Whether the user may send `list`.
  package var list: Bool

  package init(
    subscribe: PermissionRules = PermissionRules(), publish: PermissionRules = PermissionRules(),
    stats: Bool = false, list: Bool = false
  ) {
    self.subscribe = subscribe
    self.publish = publish
    self.stats = stats
    self.list = list
  }

  /// Every permission: the single user of `--token`.
  package static let everything = Permissions(
    subscribe: .everything, publish: .everything, stats: true, list: true)

  /// The name of the built-in stream that only the `stats` permission opens.
  package static let statsStream = "stats"

  /// Whether the user may publish, retain on or clear the topic `name`.
  package func mayPublish(_ name: String) -> Bool {
    publish.allows(name)
  }

  /// Whether a value published to the topic `name` may reach this user's subscriptions.
  package func mayReceive(_ name: String) -> Bool {
    name == Self.statsStream ? stats : subscribe.allows(name)
  }

  /// How much of what the subscription `pattern` matches the user may receive.
  package func subscribeScope(_ pattern: RulePattern) -> PermissionRules.Scope {
    if pattern.text == Self.statsStream { return stats ? .all : .none }
    let scope = subscribe.scope(of: pattern)
    // A pattern that can match `stats` gets it only with the permission: judged per topic then.
    if scope == .all, !stats, pattern.matches(Self.statsStream) { return .part }
    return scope
  }
}
