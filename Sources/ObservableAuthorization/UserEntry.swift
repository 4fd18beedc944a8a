import ObservableWire

/// One user's object in the authorization file, checked key by key.
struct UserEntry {
  let walk: JSONDocumentWalk
  let name: String
  let member: JSONDocumentWalk.Member

  /// The user, or the first thing wrong with the entry and its line.
  func user() throws(AuthorizationFileError) -> AuthorizedUser {
    let line = walk.line(at: member.value.lowerBound)
    guard PlaceholderName.isValid(name) else {
      throw AuthorizationFileError(
        line: line,
        "user name \"\(name)\" must be letters, digits, '_' or '-' (it can stand in a topic name)"
      )
    }
    guard member.kind == .object else {
      throw AuthorizationFileError(line: line, "user \"\(name)\" must be an object")
    }
    var digest: TokenDigest?
    var permissions = Permissions()
    var seen: Set<String> = []
    for field in walk.members(of: member.value) {
      let line = walk.line(at: field.value.lowerBound)
      guard seen.insert(field.key).inserted else {
        throw AuthorizationFileError(line: line, "\"\(field.key)\" appears twice in \"\(name)\"")
      }
      switch field.key {
      case "token":
        let text = field.kind == .string ? walk.string(at: field.value) : ""
        guard let parsed = TokenDigest(parsing: text) else {
          throw AuthorizationFileError(
            line: line,
            "the token of \"\(name)\" must be \"sha256:\" and 64 hex digits "
              + "(`observable-server token` prints one)")
        }
        digest = parsed
      case "subscribe": permissions.subscribe = try rules(field)
      case "publish": permissions.publish = try rules(field)
      case "stats": permissions.stats = try flag(field)
      case "list": permissions.list = try flag(field)
      default:
        throw AuthorizationFileError(
          line: line,
          "unknown key \"\(field.key)\" in \"\(name)\" "
            + "(known: token, subscribe, publish, stats, list)")
      }
    }
    guard let digest else {
      throw AuthorizationFileError(line: line, "user \"\(name)\" has no \"token\"")
    }
    return AuthorizedUser(name: name, digest: digest, permissions: permissions)
  }

  /// A list of allowed patterns, or `{"allow": […], "deny": […]}`.
  private func rules(_ field: JSONDocumentWalk.Member) throws(AuthorizationFileError)
    -> PermissionRules
  {
    if field.kind == .array { return PermissionRules(allow: try patterns(field)) }
    guard field.kind == .object else {
      throw AuthorizationFileError(
        line: walk.line(at: field.value.lowerBound),
        "\"\(field.key)\" of \"\(name)\" must be a list or {\"allow\": […], \"deny\": […]}")
    }
    var rules = PermissionRules()
    for list in walk.members(of: field.value) {
      switch list.key {
      case "allow": rules.allow = try patterns(list, in: field.key)
      case "deny": rules.deny = try patterns(list, in: field.key)
      default:
        throw AuthorizationFileError(
          line: walk.line(at: list.value.lowerBound),
          "unknown key \"\(list.key)\" in \"\(field.key)\" of \"\(name)\" (known: allow, deny)")
      }
    }
    return rules
  }

  private func patterns(_ field: JSONDocumentWalk.Member, in action: String? = nil)
    throws(AuthorizationFileError) -> [RulePattern]
  {
    let place = action.map { "\"\(field.key)\" of \"\($0)\"" } ?? "\"\(field.key)\""
    guard field.kind == .array else {
      throw AuthorizationFileError(
        line: walk.line(at: field.value.lowerBound), "\(place) of \"\(name)\" must be a list")
    }
    var found: [RulePattern] = []
    for element in walk.elements(of: field.value) {
      let line = walk.line(at: element.lowerBound)
      guard walk.bytes[element.lowerBound] == UInt8(ascii: "\"") else {
        throw AuthorizationFileError(line: line, "\(place) of \"\(name)\" must list strings")
      }
      let text = walk.string(at: element)
      guard !text.isEmpty else {
        throw AuthorizationFileError(line: line, "empty pattern in \(place) of \"\(name)\"")
      }
      do {
        found.append(try PlaceholderName.pattern(text, user: name))
      } catch {
        throw AuthorizationFileError(line: line, "in \(place) of \"\(name)\": \(error.message)")
      }
    }
    return found
  }

  private func flag(_ field: JSONDocumentWalk.Member) throws(AuthorizationFileError) -> Bool {
    guard field.kind == .bool else {
      throw AuthorizationFileError(
        line: walk.line(at: field.value.lowerBound),
        "\"\(field.key)\" of \"\(name)\" must be true or false")
    }
    return walk.bytes[field.value.lowerBound] == UInt8(ascii: "t")
  }
}
