import FuzzSupport

@testable import ObservableStreams
@testable import ObservableWire

/// Fuzzes pattern matching: for every name in the input, the patterns that match it according
/// to ``TopicPattern/matches(_:)`` are those that match by a positional reading of the rules,
/// and the registry's pattern index (a ``TokenTrie``), after inserts and removals the input
/// chooses, finds exactly those of its patterns, in both directions.
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
    checkIndex(input, patterns: patterns, names: names)
  }

  /// The trie against the naive matcher: patterns found for each name, names found for each
  /// pattern, each once, after removing some patterns again.
  private static func checkIndex(
    _ input: UnsafeRawBufferPointer, patterns: [String], names: [String]
  ) {
    var choices = FuzzChoices(input)
    var byPattern = TokenTrie<String>()
    var byName = TokenTrie<String>()
    for pattern in patterns { byPattern.update(pattern) { $0 = pattern } }
    for name in names { byName.update(name) { $0 = name } }
    var kept = Set(patterns)
    for pattern in patterns where choices.next() % 4 == 0 {
      byPattern.update(pattern) { $0 = nil }
      kept.remove(pattern)
    }
    for name in names {
      var found: [String] = []
      byPattern.forEachPattern(matching: name) { found.append($0) }
      let expected = kept.filter { TopicPattern($0).matches(name) }
      require(
        found.count == expected.count && Set(found) == expected,
        "\(name): index gives \(found.sorted()), naive \(expected.sorted())")
    }
    for pattern in Set(patterns) {
      var found: [String] = []
      byName.forEachName(matchedBy: pattern) { found.append($0) }
      let expected = Set(names).filter { TopicPattern(pattern).matches($0) }
      require(
        found.count == expected.count && Set(found) == expected,
        "\(pattern): names trie gives \(found.sorted()), naive \(expected.sorted())")
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
