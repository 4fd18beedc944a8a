import ObservableWire

/// Whether a stream name matches a subscription pattern, as the server matches them: `*` is
/// one token, `>` one or more trailing tokens. The rule is the wire protocol's
/// ``TopicPattern``, so client and server cannot drift apart.
///
/// Needed only with servers older than protocol 1.1's `"sub"` field, whose pattern deliveries
/// do not say which subscription they are for; the client then routes each value to every
/// local pattern it matches.
enum TopicPatternMatch {
  /// Whether `name` contains a wildcard token.
  static func isPattern(_ name: String) -> Bool {
    TopicPattern(name).hasWildcards
  }

  /// Whether the concrete `stream` matches `pattern`.
  static func matches(_ pattern: String, _ stream: String) -> Bool {
    TopicPattern(pattern).matches(stream)
  }
}
