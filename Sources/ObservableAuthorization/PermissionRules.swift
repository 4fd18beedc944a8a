/// The allow and deny lists of one action (subscribe or publish): a topic is allowed when an
/// allow rule matches it and no deny rule does. Deny wins.
package struct PermissionRules: Sendable, Equatable {
  /// Names and patterns the action may use.
  package var allow: [RulePattern]
  /// Names and patterns it may not, whatever `allow` says.
  package var deny: [RulePattern]

  package init(allow: [RulePattern] = [], deny: [RulePattern] = []) {
    self.allow = allow
    self.deny = deny
  }

  /// Every topic: what `--token` grants.
  package static let everything = PermissionRules(allow: [RulePattern(trusted: ">")])

  /// How much of a subscription (or a list filter) a set of rules allows.
  package enum Scope: Sendable, Equatable {
    /// Every topic the pattern can match.
    case all
    /// Some topics and not others: each topic is checked as it is delivered.
    case part
    /// No topic at all.
    case none
  }

  /// Whether the concrete topic `name` is allowed.
  package func allows(_ name: String) -> Bool {
    allow.contains { $0.matches(name) } && !deny.contains { $0.matches(name) }
  }

  /// How much of what `pattern` (a name or a pattern) matches is allowed.
  ///
  /// `all` needs one allow rule that covers the whole pattern and no deny rule that touches
  /// it; `none` is any pattern that no allow rule touches or that one deny rule covers. A
  /// pattern between the two is `part`, even when the allowed rules leave nothing after the
  /// denied ones are taken away (then it delivers nothing, which is still correct).
  package func scope(of pattern: RulePattern) -> Scope {
    if deny.contains(where: { $0.covers(pattern) }) { return .none }
    guard allow.contains(where: { $0.overlaps(pattern) }) else { return .none }
    if allow.contains(where: { $0.covers(pattern) }),
      !deny.contains(where: { $0.overlaps(pattern) })
    {
      return .all
    }
    return .part
  }
}
