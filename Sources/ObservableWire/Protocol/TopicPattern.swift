/// A subscription pattern over topic names split on `.`.
///
/// `*` matches exactly one token; a final `>` matches one or more trailing tokens. A pattern
/// without wildcards matches only the identical name.
package struct TopicPattern: Sendable, Hashable {
  /// The pattern as the client wrote it.
  package let text: String
  private let tokens: [Substring]

  /// Wraps an already validated pattern.
  package init(_ text: String) {
    self.text = text
    tokens = text.split(separator: ".", omittingEmptySubsequences: false)
  }

  /// Whether the pattern has a wildcard token, so it can match names other than its own.
  package var hasWildcards: Bool { tokens.contains { $0 == "*" || $0 == ">" } }

  /// Whether `name`, a concrete topic name, matches this pattern.
  package func matches(_ name: String) -> Bool {
    var nameTokens = name.split(separator: ".", omittingEmptySubsequences: false)[...]
    for token in tokens {
      if token == ">" { return !nameTokens.isEmpty }
      guard let next = nameTokens.popFirst() else { return false }
      if token != "*" && token != next { return false }
    }
    return nameTokens.isEmpty
  }
}
