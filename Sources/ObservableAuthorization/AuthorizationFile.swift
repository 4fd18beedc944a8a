import ObservableWire

/// The users of `--auth-file`, read from JSON such as:
///
/// ```json
/// {
///   "users": {
///     "dashboard": {
///       "token": "sha256:<64 hex digits>",
///       "subscribe": {"allow": ["room.*", "user.{user}.>"], "deny": ["room.secret"]},
///       "publish": ["user.{user}.>"],
///       "stats": true,
///       "list": true
///     }
///   }
/// }
/// ```
///
/// `subscribe` and `publish` are either a list of allowed names and patterns or an object with
/// `allow` and `deny` lists; `stats` and `list` default to false. Why JSON: the server reads it
/// with the protocol's own scanner, so the file adds no dependency and nothing of Foundation
/// (Yams and TOMLKit both import it); and each error can still name its line.
package struct AuthorizationFile: Sendable, Equatable {
  /// The users by name.
  package let users: [String: AuthorizedUser]

  package init(users: [String: AuthorizedUser]) {
    self.users = users
  }

  /// The most bytes the file may hold: far more than 1,000 users with 10 rules each.
  package static let byteLimit = 16 * 1024 * 1024

  /// Reads and checks the file at `path`.
  package static func load(path: String) throws(AuthorizationFileError) -> AuthorizationFile {
    guard let bytes = BoundedFile.contents(of: path, limit: byteLimit) else {
      throw AuthorizationFileError(
        line: 0, "cannot read \(path), or it is over \(byteLimit) bytes")
    }
    return try parse(bytes)
  }

  /// Checks the JSON `bytes` and builds the users.
  package static func parse(_ bytes: [UInt8]) throws(AuthorizationFileError) -> AuthorizationFile {
    let walk = JSONDocumentWalk(bytes: bytes)
    var users: [String: AuthorizedUser] = [:]
    for member in walk.members(of: try walk.root()) {
      guard member.key == "users" else {
        throw AuthorizationFileError(
          line: walk.line(at: member.value.lowerBound),
          "unknown key \"\(member.key)\" (the file has only \"users\")")
      }
      guard member.kind == .object else {
        throw AuthorizationFileError(
          line: walk.line(at: member.value.lowerBound), "\"users\" must be an object")
      }
      for entry in walk.members(of: member.value) {
        let line = walk.line(at: entry.value.lowerBound)
        guard users[entry.key] == nil else {
          throw AuthorizationFileError(line: line, "user \"\(entry.key)\" appears twice")
        }
        users[entry.key] = try UserEntry(walk: walk, name: entry.key, member: entry).user()
      }
    }
    return AuthorizationFile(users: users)
  }
}
