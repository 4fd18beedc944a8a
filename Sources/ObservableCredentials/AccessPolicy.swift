import Locking
import ObservableAuthorization
import Synchronization

/// The server's credentials and rules, shared by every loop: `--token`, the users of
/// `--auth-file` (which a reload replaces) and the key of `--jwt-key`.
///
/// Each connection keeps its own decisions in a ``ConnectionAccess`` and asks for fresh
/// permissions only when ``generation`` moved, so a reload costs the hot path one atomic load.
package final class AccessPolicy: AccessRules {
  /// The digest of `--token`, which makes one user with every permission.
  package let sharedToken: TokenDigest?
  /// Where `--auth-file` is, for reloads.
  package let filePath: String?
  /// The key of `--jwt-key`.
  package let signedTokens: SignedTokenVerifier?
  private let file: Locked<AuthorizationFile?>
  private let reloads = Atomic<Int>(0)

  package init(
    sharedToken: String? = nil, file: AuthorizationFile? = nil, filePath: String? = nil,
    signedTokens: SignedTokenVerifier? = nil
  ) {
    self.sharedToken = sharedToken.map(TokenDigest.init(hashing:))
    self.file = Locked(file)
    self.filePath = filePath
    self.signedTokens = signedTokens
  }

  /// Whether a client must send `auth` before anything else.
  package var requiresAuthentication: Bool {
    sharedToken != nil || filePath != nil || signedTokens != nil
      || file.withLock { $0 != nil }
  }

  /// Moves on every reload: what a connection decided before is stale.
  package var generation: Int { reloads.load(ordering: .acquiring) }

  /// The identity that `token` proves, for `user` (a file user) or alone (`--token`).
  ///
  /// An unknown user is hashed and compared all the same, so that the time taken does not tell
  /// which user names exist.
  package func authenticate(user: String?, token: String) -> Identity? {
    guard let user else {
      guard let sharedToken, sharedToken.matches(token) else { return nil }
      return .everything
    }
    let known = file.withLock { $0?.users[user] }
    let digest = known?.digest ?? TokenDigest(hashing: "")
    guard digest.matches(token), known != nil else { return nil }
    return .user(user)
  }

  /// The file user a trusted client certificate names: the certificate was checked against
  /// `--tls-client-ca` in the handshake, so the name alone proves the user.
  package func authenticate(certificateUser user: String) -> Identity? {
    file.withLock { $0?.users[user] } == nil ? nil : .user(user)
  }

  /// The identity a signed token proves, or why it proves none.
  package func authenticate(signedToken: String) throws(SignedTokenRejection) -> Identity {
    guard let signedTokens else {
      throw SignedTokenRejection("this server takes no signed tokens (no --jwt-key)")
    }
    return .signed(try signedTokens.verify(signedToken))
  }

  /// What `identity` may do now; `nil` for a file user that the last reload removed.
  package func permissions(of identity: Identity) -> Permissions? {
    switch identity {
    case .everything: .everything
    case .user(let name): file.withLock { $0?.users[name]?.permissions }
    case .signed(let signed): signed.permissions
    }
  }

  /// Reads `--auth-file` again; on an error the rules in force stay.
  @discardableResult
  package func reload() throws(AuthorizationFileError) -> AuthorizationFile? {
    guard let filePath else { return nil }
    let loaded = try AuthorizationFile.load(path: filePath)
    replace(loaded)
    return loaded
  }

  /// Puts `newFile` in force and makes every connection's decisions stale.
  package func replace(_ newFile: AuthorizationFile) {
    file.withLock { $0 = newFile }
    reloads.add(1, ordering: .releasing)
  }
}
