import ObservableWire

/// One name or pattern of a permission rule, as the authorization file or a signed token
/// writes it (after `{user}` was replaced).
///
/// Matching a concrete topic name is ``TopicPattern``'s job; what a rule adds is comparing two
/// patterns, so that a pattern subscription can be judged before any topic exists: whether the
/// rule covers every topic the subscription could match, or at least one of them.
package struct RulePattern: Sendable, Hashable, CustomStringConvertible {
  /// The pattern as written.
  package let text: String
  private let topic: TopicPattern
  private let tokens: [Substring]

  /// Checks `text` with the protocol's own rules for names and patterns.
  package init(validating text: String) throws(ProtocolError) {
    _ = try StreamName.validatePattern(text)
    self.init(trusted: text)
  }

  /// Wraps a name or pattern that is valid already (the server checked it on the way in).
  package init(trusted text: String) {
    self.text = text
    topic = TopicPattern(text)
    tokens = text.split(separator: ".", omittingEmptySubsequences: false)
  }

  package var description: String { text }

  /// Whether this is a pattern (it has a `*` or `>` token) rather than one concrete name.
  ///
  /// A concrete name is allowed whole or not at all, under any rules; only a pattern can be
  /// allowed in part.
  package var hasWildcards: Bool { topic.hasWildcards }

  /// Whether the concrete topic `name` matches.
  package func matches(_ name: String) -> Bool {
    topic.matches(name)
  }

  /// Whether every topic that `other` can match is matched by this pattern too.
  package func covers(_ other: RulePattern) -> Bool {
    var theirs = other.tokens[...]
    for token in tokens {
      // `>` takes one or more tokens: whatever remains of theirs, as long as something does.
      if token == ">" { return !theirs.isEmpty }
      guard let next = theirs.popFirst() else { return false }
      // Their `>` could match more tokens than ours takes, or different ones.
      if next == ">" { return false }
      if token == "*" { continue }
      // Ours is a literal: theirs must be the same literal, not `*`.
      if next != token { return false }
    }
    return theirs.isEmpty
  }

  /// Whether at least one topic is matched both by this pattern and by `other`.
  package func overlaps(_ other: RulePattern) -> Bool {
    var theirs = other.tokens[...]
    for token in tokens {
      guard let next = theirs.popFirst() else { return false }
      // Either side's `>` absorbs the rest of the other, which has a token here already.
      if token == ">" || next == ">" { return true }
      if token == "*" || next == "*" { continue }
      if token != next { return false }
    }
    return theirs.isEmpty
  }
}
