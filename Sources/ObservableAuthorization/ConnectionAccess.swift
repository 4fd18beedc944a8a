/// One connection's identity and its decisions so far, topic by topic, so that a connection
/// that publishes to or receives from the same topics pays for each rule check once.
///
/// Used on the connection's loop only. A reload of the rules (a new ``AccessRules/generation``)
/// throws the decisions away and fetches the identity's permissions again.
package struct ConnectionAccess {
  /// Who the connection is; `nil` before `auth`.
  package private(set) var identity: Identity? {
    didSet { isUnrestricted = identity == .everything }
  }
  /// Whether every request is allowed, so that the session need not ask.
  ///
  /// Stored beside ``identity`` rather than computed from it: the session asks on every
  /// publish, and comparing identities copied this whole struct each time (about 1,500
  /// instructions a publish, measured with callgrind).
  package private(set) var isUnrestricted = false
  /// What it may do, as of `generation`; nothing before `auth`.
  package private(set) var permissions = Permissions()
  /// The ``AccessRules/generation`` the decisions were made under; -1 for none yet. The
  /// session compares it on every publish: a stored field, because calling a method of this
  /// struct, stored in the session, copied the whole struct each time.
  package private(set) var generation = -1
  /// Counts `auth`s, so that the expiry timer of a signed token replaced since does nothing.
  package private(set) var authentications = 0
  /// When the signed token the connection proved itself with expires; `nil` for any other
  /// credential. A fresh `auth` moves it, without another timer.
  package var signedTokenExpiry: ContinuousClock.Instant?
  /// Whether the connection's one expiry timer is armed, so that repeated `auth`s never add a
  /// second one (a client could otherwise make the server hold a timer per line).
  package var expiryTimerArmed = false
  private var publishing: [String: Bool] = [:]
  private var receiving: [String: Bool] = [:]

  /// Decisions kept per action; past this the cache starts again, which bounds a connection
  /// that touches endless distinct topics.
  package static let cacheLimit = 4096

  package init() {}

  /// Before `auth`: no identity, or everything when `policy` asks for no credentials at all.
  package init(policy: any AccessRules) {
    if !policy.requiresAuthentication { authenticated(as: .everything, policy: policy) }
  }

  /// The connection proved `identity`: its permissions come from `policy` from now on.
  package mutating func authenticated(as identity: Identity, policy: any AccessRules) {
    self.identity = identity
    authentications += 1
    signedTokenExpiry = nil
    generation = -1
    refresh(policy)
  }

  /// Fetches fresh permissions when the rules were reloaded; returns whether they were.
  @discardableResult
  package mutating func refresh(_ policy: any AccessRules) -> Bool {
    let current = policy.generation
    guard current != generation else { return false }
    generation = current
    publishing.removeAll(keepingCapacity: true)
    receiving.removeAll(keepingCapacity: true)
    permissions = identity.flatMap { policy.permissions(of: $0) } ?? Permissions()
    return true
  }

  /// Whether the connection may publish, retain on or clear `name`.
  package mutating func mayPublish(_ name: String, policy: any AccessRules) -> Bool {
    refresh(policy)
    return Self.decide(name, in: &publishing, by: permissions.mayPublish)
  }

  /// Whether a value on the topic `name` may reach this connection.
  package mutating func mayReceive(_ name: String, policy: any AccessRules) -> Bool {
    refresh(policy)
    return Self.decide(name, in: &receiving, by: permissions.mayReceive)
  }

  /// The decision kept in `cache` for `name`, or `rule`'s, kept from now on.
  private static func decide(
    _ name: String, in cache: inout [String: Bool], by rule: (String) -> Bool
  ) -> Bool {
    if let decided = cache[name] { return decided }
    let allowed = rule(name)
    if cache.count >= cacheLimit { cache.removeAll(keepingCapacity: true) }
    cache[name] = allowed
    return allowed
  }

  /// How much of the subscription `pattern` the connection may receive.
  package mutating func subscribeScope(_ pattern: String, policy: any AccessRules)
    -> PermissionRules.Scope
  {
    refresh(policy)
    return permissions.subscribeScope(RulePattern(trusted: pattern))
  }
}
