import Locking
import Synchronization

/// Decides, value by value, what one subscription of a restricted user delivers, from any
/// thread that publishes: a pattern subscription (one to a concrete name needs none, since the
/// session ends it if a reload forbids it), or one read of history or of a retained value.
///
/// While the subscription's pattern is wholly allowed under the rules in force, a value passes
/// after one atomic load. A pattern allowed only in part has each topic judged (and the
/// answer kept); after a reload the pattern is judged again, so that a subscription the new
/// rules forbid delivers nothing more, even before the session ends it.
package final class SubscriptionFilter: Sendable {
  private let policy: any AccessRules
  private let identity: Identity
  private let pattern: RulePattern
  /// The generation under which the whole pattern is allowed, or -1.
  private let wholeUnder = Atomic<Int>(-1)
  private let state = Locked(Decisions())

  /// What the filter decided under one generation of the rules.
  private struct Decisions {
    var generation = -1
    var scope = PermissionRules.Scope.none
    var permissions = Permissions()
    var topics: [String: Bool] = [:]
  }

  package init(pattern: String, identity: Identity, policy: any AccessRules) {
    self.policy = policy
    self.identity = identity
    self.pattern = RulePattern(trusted: pattern)
  }

  /// The lines of `lines` (whole `{"stream":NAME,…}` lines) the user may receive: `lines`
  /// itself when all may pass, `nil` when none may.
  package func permitted(_ lines: [UInt8]) -> [UInt8]? {
    let generation = policy.generation
    if wholeUnder.load(ordering: .relaxed) == generation { return lines }
    return state.withLock { decisions -> [UInt8]? in
      if decisions.generation != generation {
        decisions.generation = generation
        decisions.permissions = policy.permissions(of: identity) ?? Permissions()
        decisions.scope = decisions.permissions.subscribeScope(pattern)
        decisions.topics.removeAll(keepingCapacity: true)
        if decisions.scope == .all { wholeUnder.store(generation, ordering: .relaxed) }
      }
      switch decisions.scope {
      case .all: return lines
      case .none: return nil
      case .part: return Self.kept(lines, decisions: &decisions)
      }
    }
  }

  /// The scope of the subscription under the rules in force.
  package var scope: PermissionRules.Scope {
    (policy.permissions(of: identity) ?? Permissions()).subscribeScope(pattern)
  }

  private static func kept(_ lines: [UInt8], decisions: inout Decisions) -> [UInt8]? {
    var kept: [UInt8] = []
    var start = 0
    var all = true
    while start < lines.count {
      let end = (lines[start...].firstIndex(of: UInt8(ascii: "\n")) ?? lines.count - 1) + 1
      let name = topic(in: lines[start..<end])
      let allowed: Bool
      if let known = decisions.topics[name] {
        allowed = known
      } else {
        allowed = decisions.permissions.mayReceive(name)
        if decisions.topics.count >= ConnectionAccess.cacheLimit { decisions.topics.removeAll() }
        decisions.topics[name] = allowed
      }
      if allowed { kept.append(contentsOf: lines[start..<end]) } else { all = false }
      start = end
    }
    if all { return lines }
    return kept.isEmpty ? nil : kept
  }

  /// The topic of a delivery line, which starts `{"stream":"NAME"`; names need no escapes.
  private static func topic(in line: ArraySlice<UInt8>) -> String {
    let prefix = Array(#"{"stream":""#.utf8)
    guard line.starts(with: prefix) else { return "" }
    let nameStart = line.startIndex + prefix.count
    let nameEnd = line[nameStart...].firstIndex(of: UInt8(ascii: "\"")) ?? nameStart
    return String(decoding: line[nameStart..<nameEnd], as: UTF8.self)
  }
}
