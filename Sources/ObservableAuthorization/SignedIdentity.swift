/// Who a valid signed token says the client is, what it may do, and for how long.
package struct SignedIdentity: Sendable, Equatable {
  /// The token's `sub`.
  package let user: String
  /// The token's `observable` claim, with `{user}` replaced.
  package let permissions: Permissions
  /// How long until `exp`, from when the token was checked.
  package let expiresIn: Duration

  package init(user: String, permissions: Permissions, expiresIn: Duration) {
    self.user = user
    self.permissions = permissions
    self.expiresIn = expiresIn
  }
}
