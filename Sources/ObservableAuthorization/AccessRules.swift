/// What a session asks of the server's credentials and rules: who a credential proves, and what
/// that identity may do now.
///
/// The session holds one of these in its context and never learns how credentials are checked:
/// `AccessPolicy` (in `ObservableCredentials`, with SHA-256 and jwt-kit) implements it for
/// `--auth-file` and `--jwt-key`, ``SharedTokenAccess`` for `--token` alone. Every method is
/// synchronous and quick (a hash, or one signature check), so a loop thread may call it.
package protocol AccessRules: Sendable {
  /// Whether a client must send `auth` before anything else.
  var requiresAuthentication: Bool { get }

  /// Moves on every reload: what a connection decided before is stale.
  var generation: Int { get }

  /// The identity that `token` proves, for `user` (a file user) or alone (`--token`).
  func authenticate(user: String?, token: String) -> Identity?

  /// The file user a trusted TLS client certificate names (its subject's CN), or `nil` when
  /// the file has no such user.
  func authenticate(certificateUser user: String) -> Identity?

  /// The identity a signed token proves, or why it proves none.
  func authenticate(signedToken: String) throws(SignedTokenRejection) -> Identity

  /// What `identity` may do now; `nil` for a user that the last reload removed.
  func permissions(of identity: Identity) -> Permissions?
}
