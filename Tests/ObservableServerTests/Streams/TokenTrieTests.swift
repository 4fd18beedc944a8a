import Testing

@testable import ObservableServer
@testable import ObservableStreams
@testable import ObservableWire

/// The token trie against the naive matcher, ``TopicPattern/matches(_:)``, on generated names
/// and patterns under random insert and remove sequences.
@Suite(.timeLimit(.minutes(1)))
struct TokenTrieTests {
  @Test("the patterns found for a name are those the naive matcher accepts", arguments: 0..<4)
  func patternsForName(seed: UInt64) {
    var random = SplitMix64(seed: 0x7061_7474 &+ seed)
    var trie = TokenTrie<String>()
    var stored: Set<String> = []
    var naive: [String: TopicPattern] = [:]
    // Collected rather than expected one by one, which would cost more than the checks.
    var mismatches: [String] = []
    for _ in 0..<400 {
      let pattern = Self.pattern(&random)
      // Mostly inserts, so the trie grows; removals of stored keys and of absent ones.
      if random.next() % 3 == 0, let victim = stored.randomElement(using: &random) {
        trie.update(victim) { $0 = nil }
        stored.remove(victim)
      } else if random.next() % 8 == 0 {
        trie.update(pattern) { $0 = nil }
        stored.remove(pattern)
      } else {
        trie.update(pattern) { $0 = pattern }
        stored.insert(pattern)
        naive[pattern] = TopicPattern(pattern)
      }
      if trie.count != stored.count { mismatches.append("count \(trie.count) != \(stored.count)") }
      for _ in 0..<4 {
        let name = Self.name(&random)
        var found: [String] = []
        trie.forEachPattern(matching: name) { found.append($0) }
        let expected = stored.filter { naive[$0, default: TopicPattern($0)].matches(name) }
        if found.count != expected.count || Set(found) != expected {
          mismatches.append("\(name): found \(found.sorted()), expected \(expected.sorted())")
        }
      }
    }
    #expect(mismatches.isEmpty, "\(mismatches.prefix(5))")
  }

  @Test("the names found for a pattern are those the naive matcher accepts", arguments: 0..<4)
  func namesForPattern(seed: UInt64) {
    var random = SplitMix64(seed: 0x6E61_6D65 &+ seed)
    var trie = TokenTrie<String>()
    var stored: Set<String> = []
    var mismatches: [String] = []
    for _ in 0..<400 {
      let name = Self.name(&random)
      if random.next() % 3 == 0, let victim = stored.randomElement(using: &random) {
        trie.update(victim) { $0 = nil }
        stored.remove(victim)
      } else {
        trie.update(name) { $0 = name }
        stored.insert(name)
      }
      if trie.value(for: name) != (stored.contains(name) ? name : nil) {
        mismatches.append("value for \(name)")
      }
      for _ in 0..<4 {
        let pattern = Self.pattern(&random)
        var found: [String] = []
        trie.forEachName(matchedBy: pattern) { found.append($0) }
        let naive = TopicPattern(pattern)
        let expected = stored.filter { naive.matches($0) }
        if found.count != expected.count || Set(found) != expected {
          mismatches.append("\(pattern): found \(found.sorted()), expected \(expected.sorted())")
        }
      }
    }
    #expect(mismatches.isEmpty, "\(mismatches.prefix(5))")
  }

  @Test("removing every key frees every node")
  func removalFreesNodes() {
    var random = SplitMix64(seed: 99)
    var trie = TokenTrie<Int>()
    var keys: [String] = []
    for index in 0..<500 {
      let key = index.isMultiple(of: 2) ? Self.pattern(&random) : Self.name(&random)
      trie.update(key) { $0 = index }
      keys.append(key)
    }
    #expect(!trie.root.isEmpty)
    for key in keys.shuffled(using: &random) { trie.update(key) { $0 = nil } }
    #expect(trie.isEmpty)
    #expect(trie.root.isEmpty)
    #expect(trie.root.literal.isEmpty)
  }

  @Test("a value is changed in place, and update returns what its body returns")
  func updateInPlace() {
    var trie = TokenTrie<[Int]>()
    trie.update("a.*.c") { $0 = [1] }
    let count = trie.update("a.*.c") { value -> Int in
      value?.append(2)
      return value?.count ?? 0
    }
    #expect(count == 2)
    #expect(trie.value(for: "a.*.c") == [1, 2])
    #expect(trie.value(for: "a.b.c") == nil)
    #expect(trie.value(for: "a.*") == nil)
    #expect(trie.count == 1)
  }

  @Test("wildcards in a pattern index: one token for *, one or more for >")
  func wildcardTable() {
    var trie = TokenTrie<String>()
    for pattern in ["a.*", "a.>", "*.b", ">", "a.b", "*", "a.*.c"] {
      trie.update(pattern) { $0 = pattern }
    }
    let cases: [(String, Set<String>)] = [
      ("a", [">", "*"]),
      ("a.b", ["a.*", "a.>", "*.b", ">", "a.b"]),
      ("a.b.c", ["a.>", ">", "a.*.c"]),
      ("x.b", ["*.b", ">"]),
      ("x.y.z.w", [">"]),
    ]
    for (name, expected) in cases {
      var found: Set<String> = []
      trie.forEachPattern(matching: name) { found.insert($0) }
      #expect(found == expected, "\(name)")
    }
  }

  /// A concrete name of one to four tokens from a small alphabet, so that names collide.
  static func name(_ random: inout SplitMix64) -> String {
    let count = 1 + Int(random.next() % 4)
    return (0..<count).map { _ in Self.tokens[Int(random.next() % UInt64(Self.tokens.count))] }
      .joined(separator: ".")
  }

  /// A pattern over the same tokens, with `*` anywhere and sometimes a final `>`.
  static func pattern(_ random: inout SplitMix64) -> String {
    var parts = name(&random).split(separator: ".").map(String.init)
    for index in parts.indices where random.next() % 3 == 0 { parts[index] = "*" }
    if random.next() % 4 == 0 { parts[parts.count - 1] = ">" }
    return parts.joined(separator: ".")
  }

  private static let tokens = ["a", "b", "c", "room", "x-1", "_"]
}
