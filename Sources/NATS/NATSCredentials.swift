/// What a client presents in CONNECT.
public enum NATSCredentials: Sendable, Hashable {
  /// No credentials.
  case none
  /// `user` and `pass`.
  case user(name: String, password: String)
  /// `auth_token`.
  case token(String)
}
