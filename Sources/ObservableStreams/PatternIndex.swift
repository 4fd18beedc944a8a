/// The pattern subscriptions, grouped by pattern in a ``TokenTrie``, with a bounded cache of the
/// patterns each recently published name matches.
///
/// The trie's walk costs a handful of lookups, but with many patterns each touches memory no
/// other publish keeps warm: with 100,000 patterns a publish to a name they do not match cost
/// about 0.5 µs more. The cache answers a name published again with one lookup in a small
/// table. It holds the trie nodes that matched, whose values (the current subscribers) are read
/// at delivery, so subscribers coming and going to a pattern that already has some need no
/// invalidation; only a pattern gaining its first subscriber or losing its last changes which
/// nodes match, and then the cache is emptied.
package struct PatternIndex {
  /// Names cached at most; past it the cache starts over, so memory stays bounded whatever
  /// names are published.
  static let cacheLimit = 4096

  private var trie = TokenTrie<PatternSubscribers>()
  private var cache: [String: [TokenTrie<PatternSubscribers>.Node]] = [:]
  /// The name matched last and its nodes: a publisher mostly publishes to one name again, and
  /// comparing a short name costs less than hashing it.
  private var last: (name: String, nodes: [TokenTrie<PatternSubscribers>.Node])?

  /// How many distinct patterns have subscriptions.
  package var count: Int { trie.count }

  /// Whether no pattern has subscriptions.
  package var isEmpty: Bool { trie.isEmpty }

  /// How many names the cache holds, for tests.
  var cachedNames: Int { cache.count }

  /// Lets `body` change the subscriptions to `pattern` (`nil` when there are none).
  package mutating func update<Result>(
    _ pattern: String, _ body: (inout PatternSubscribers?) -> Result
  ) -> Result {
    let before = trie.count
    let result = trie.update(pattern, body)
    if trie.count != before {
      cache = [:]
      last = nil
    }
    return result
  }

  /// Calls `body` with the subscriptions of every pattern that matches the concrete `name`.
  mutating func forEachMatch(of name: String, _ body: (PatternSubscribers) -> Void) {
    guard !trie.isEmpty else { return }
    if let last, last.name == name {
      Self.deliver(last.nodes, body)
      return
    }
    if let nodes = cache[name] {
      last = (name, nodes)
      Self.deliver(nodes, body)
      return
    }
    var nodes: [TokenTrie<PatternSubscribers>.Node] = []
    trie.forEachPatternNode(matching: name) { node in
      nodes.append(node)
      if let subscribers = node.value { body(subscribers) }
    }
    if cache.count >= Self.cacheLimit { cache.removeAll(keepingCapacity: true) }
    cache[name] = nodes
    last = (name, nodes)
  }

  private static func deliver(
    _ nodes: [TokenTrie<PatternSubscribers>.Node], _ body: (PatternSubscribers) -> Void
  ) {
    for node in nodes {
      if let subscribers = node.value { body(subscribers) }
    }
  }
}
