import ObservableWire

/// The `{user}` placeholder of a rule, which gives each user a subtree of topics.
package enum PlaceholderName {
  /// The placeholder as a rule writes it.
  package static let placeholder = "{user}"

  /// Whether `name` can replace the placeholder and leave one token: `[A-Za-z0-9_-]+`.
  package static func isValid(_ name: String) -> Bool {
    (try? StreamName.validate(name)) != nil && !name.utf8.contains(UInt8(ascii: "."))
  }

  /// The rule `text` with `{user}` replaced by `user`, checked as a name or pattern.
  package static func pattern(_ text: String, user: String) throws(ProtocolError) -> RulePattern {
    guard text.contains(placeholder) else { return try RulePattern(validating: text) }
    return try RulePattern(validating: text.replacing(placeholder, with: user))
  }
}
