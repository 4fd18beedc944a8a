/// One user of the authorization file: the digest of their token and what they may do, with
/// `{user}` already replaced by their name.
package struct AuthorizedUser: Sendable, Equatable {
  /// The name a client gives in `auth`.
  package let name: String
  /// The digest of the user's token.
  package let digest: TokenDigest
  package let permissions: Permissions

  package init(name: String, digest: TokenDigest, permissions: Permissions) {
    self.name = name
    self.digest = digest
    self.permissions = permissions
  }
}
