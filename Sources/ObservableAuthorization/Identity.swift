/// Who a connection proved to be with `auth`.
package enum Identity: Sendable, Equatable {
  /// The holder of `--token`, or anyone when the server has no credentials at all: every
  /// permission.
  case everything
  /// A user of the authorization file, whose permissions follow the file across reloads.
  case user(String)
  /// The subject of a signed token, with the permissions the token carries until it expires.
  case signed(SignedIdentity)

  /// The user's name for logs: never the credential.
  package var name: String {
    switch self {
    case .everything: "*"
    case .user(let name): name
    case .signed(let identity): identity.user
    }
  }
}
