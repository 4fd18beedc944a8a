import FuzzSupport

@testable import ObservableServer

/// Fuzzes pattern matching: for every name in the input, the patterns that match it according
/// to ``TopicPattern/matches(_:)`` are those that match by a positional reading of the rules.
///
/// The input is read as lines over a small alphabet (each byte picks `a`, `b`, `c`, `.`, `*`,
/// `>` or a line break), so that most inputs are valid names and patterns with shared tokens
/// instead of bytes the name rules reject. Every valid line is a pattern; those without
/// wildcards are names too.
@main
enum TopicPatternTarget {
  private static let alphabet = Array("abc..*>\n".utf8)

  /// Starts libFuzzer, which calls ``check(_:)`` with each input.
  static func main() {
    FuzzDriver.run { data, size in
      TopicPatternTarget.check(FuzzDriver.bytes(data, size))
      return 0
    }
  }

  private static func check(_ input: UnsafeRawBufferPointer) {
    let text = String(decoding: input.map { alphabet[Int($0) % alphabet.count] }, as: UTF8.self)
    var patterns: [String] = []
    var names: [String] = []
    for line in text.split(separator: "\n").prefix(64) {
      let line = String(line)
      guard let hasWildcards = try? StreamName.validatePattern(line) else { continue }
      patterns.append(line)
      if !hasWildcards { names.append(line) }
    }
    let compiled = patterns.map(TopicPattern.init)
    for name in names {
      let matched = compiled.filter { $0.matches(name) }.map(\.text)
      let expected = patterns.filter { rules(pattern: $0, name: name) }
      require(matched == expected, "\(name) matches \(matched), by the rules \(expected)")
      require(matched.contains(name), "\(name) does not match itself")
    }
  }

  /// The matching rules read by position: a pattern ending in `>` needs at least as many tokens
  /// as it has, any other exactly as many, and each token that is not a wildcard must be equal.
  private static func rules(pattern: String, name: String) -> Bool {
    let patternTokens = pattern.split(separator: ".", omittingEmptySubsequences: false)
    let nameTokens = name.split(separator: ".", omittingEmptySubsequences: false)
    if patternTokens.last == ">" {
      guard nameTokens.count >= patternTokens.count else { return false }
    } else {
      guard nameTokens.count == patternTokens.count else { return false }
    }
    return zip(patternTokens, nameTokens).allSatisfy { $0 == "*" || $0 == ">" || $0 == $1 }
  }
}
