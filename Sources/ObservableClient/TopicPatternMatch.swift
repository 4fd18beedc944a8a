/// Whether a stream name matches a subscription pattern, as the server matches them: `*` is
/// one token, `>` one or more trailing tokens.
///
/// Needed only with servers older than protocol 1.1's `"sub"` field, whose pattern deliveries
/// do not say which subscription they are for; the client then routes each value to every
/// local pattern it matches.
enum TopicPatternMatch {
  /// Whether `name` contains a wildcard token.
  static func isPattern(_ name: String) -> Bool {
    name.split(separator: ".", omittingEmptySubsequences: false).contains { $0 == "*" || $0 == ">" }
  }

  /// Whether the concrete `stream` matches `pattern`.
  static func matches(_ pattern: String, _ stream: String) -> Bool {
    let wanted = pattern.split(separator: ".", omittingEmptySubsequences: false)
    let tokens = stream.split(separator: ".", omittingEmptySubsequences: false)
    for (position, token) in wanted.enumerated() {
      if token == ">" { return position == wanted.count - 1 && tokens.count > position }
      guard position < tokens.count else { return false }
      if token != "*" && token != tokens[position] { return false }
    }
    return tokens.count == wanted.count
  }
}
