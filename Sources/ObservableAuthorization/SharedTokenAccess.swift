/// `--token` alone, or no credentials at all: one token (when set) that grants every
/// permission, as before users existed.
package struct SharedTokenAccess: AccessRules {
  /// The token a client must send, or `nil` when anyone may do anything.
  private let token: [UInt8]?

  package init(token: String?) {
    self.token = token.map { Array($0.utf8) }
  }

  package var requiresAuthentication: Bool { token != nil }

  package var generation: Int { 0 }

  package func authenticate(user: String?, token given: String) -> Identity? {
    guard let token else { return .everything }
    guard user == nil, TokenComparison.matches(Array(given.utf8), token) else { return nil }
    return .everything
  }

  package func authenticate(certificateUser user: String) -> Identity? { nil }

  package func authenticate(signedToken: String) throws(SignedTokenRejection) -> Identity {
    throw SignedTokenRejection("this server takes no signed tokens (no --jwt-key)")
  }

  package func permissions(of identity: Identity) -> Permissions? {
    switch identity {
    case .everything: .everything
    case .user: nil
    case .signed(let signed): signed.permissions
    }
  }
}
