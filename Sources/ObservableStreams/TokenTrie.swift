import ObservableWire

/// Values keyed by stream names or patterns, stored token by token, in the manner of NATS's
/// sublist.
///
/// Keys are tokens of `[A-Za-z0-9_-]` joined by `.`, as ``StreamName`` checks them; a `*` token
/// and a final `>` token are stored apart from the literal ones. Stored patterns are found from
/// a concrete name (``forEachPattern(matching:_:)``) and stored names from a pattern
/// (``forEachName(matchedBy:_:)``) by following only the branches that can match, so the work is
/// in proportion to the tokens and the matches, not to the number of keys. A key's nodes are
/// freed when its value is removed, so memory follows what is stored.
///
/// Not thread-safe: the ``StreamRegistry`` keeps its tries under its lock. The nodes are
/// objects, so copies of a trie share them: keep one trie, and change it in place.
package struct TokenTrie<Value> {
  /// One token's position in the trie.
  package final class Node {
    /// Children by literal token. String keys rather than substrings: a token of up to 15
    /// bytes is then a small string, made without allocating and hashed as plain bytes, where
    /// a substring's hash goes through Unicode normalization.
    package var literal: [String: Node] = [:]
    /// The child for `*`.
    var oneToken: Node?
    /// The child for a final `>`.
    var tail: Node?
    /// The value of the key that ends here.
    package var value: Value?

    /// Whether nothing is stored here or below, so that the node can be freed.
    package var isEmpty: Bool { value == nil && literal.isEmpty && oneToken == nil && tail == nil }
  }

  /// The node of the empty key; never holds a value, since keys are never empty.
  package let root = Node()

  /// How many keys have a value.
  private(set) var count = 0

  /// Whether no key has a value.
  package var isEmpty: Bool { count == 0 }

  /// The value stored under `key`, if any.
  package func value(for key: String) -> Value? {
    var node = root
    for token in key.split(separator: ".", omittingEmptySubsequences: false) {
      guard let child = Self.child(of: node, token) else { return nil }
      node = child
    }
    return node.value
  }

  /// Lets `body` change the value under `key` in place (setting it to `nil` removes it) and
  /// returns what `body` returns. Nodes left empty by a removal are freed.
  package mutating func update<Result>(_ key: String, _ body: (inout Value?) -> Result) -> Result {
    let tokens = key.split(separator: ".", omittingEmptySubsequences: false)
    var path: [(parent: Node, token: Substring)] = []
    path.reserveCapacity(tokens.count)
    var node = root
    for token in tokens {
      let child = Self.child(of: node, token) ?? Self.addChild(to: node, token)
      path.append((node, token))
      node = child
    }
    let hadValue = node.value != nil
    let result = body(&node.value)
    switch (hadValue, node.value != nil) {
    case (false, true): count += 1
    case (true, false): count -= 1
    default: break
    }
    // Frees the nodes that no longer lead to any value, deepest first.
    var emptied = node
    while emptied.isEmpty, let (parent, token) = path.popLast() {
      Self.removeChild(of: parent, token)
      emptied = parent
    }
    return result
  }

  /// Calls `body` with every value whose key, read as a pattern, matches the concrete `name`.
  ///
  /// Each matching key is reported once: a name's tokens follow one literal branch and one `*`
  /// branch per level, and a `>` ends a key, so no key is reached along two paths.
  func forEachPattern(matching name: String, _ body: (Value) -> Void) {
    forEachPatternNode(matching: name) { node in
      if let value = node.value { body(value) }
    }
  }

  /// Calls `body` with the node of every key that, read as a pattern, matches `name`, which
  /// holds the key's value as long as the key has one; ``PatternIndex`` caches them.
  func forEachPatternNode(matching name: String, _ body: (Node) -> Void) {
    guard !root.isEmpty else { return }
    var name = name
    name.withUTF8 { bytes in
      guard !bytes.isEmpty else { return }
      Self.collect(root, bytes, from: 0, body)
    }
  }

  /// Calls `body` with every value whose key, a concrete name, is matched by `pattern`.
  func forEachName(matchedBy pattern: String, _ body: (Value) -> Void) {
    guard !root.isEmpty else { return }
    let tokens = pattern.split(separator: ".", omittingEmptySubsequences: false)
    Self.walk(root, tokens[...], body)
  }

  /// Matches the token of `name` that starts at `start` at `node`, and those after it below.
  private static func collect(
    _ node: Node, _ name: UnsafeBufferPointer<UInt8>, from start: Int, _ body: (Node) -> Void
  ) {
    var end = start
    while end < name.count, name[end] != UInt8(ascii: ".") { end += 1 }
    let next = end < name.count ? end + 1 : nil
    // A final `>` takes this token and all that follow.
    if let tail = node.tail, tail.value != nil { body(tail) }
    if !node.literal.isEmpty {
      let token = String(decoding: UnsafeBufferPointer(rebasing: name[start..<end]), as: UTF8.self)
      if let child = node.literal[token] { follow(child, name, from: next, body) }
    }
    if let child = node.oneToken { follow(child, name, from: next, body) }
  }

  /// Goes on matching at `node` from `next`, or reports its value when the name has ended.
  private static func follow(
    _ node: Node, _ name: UnsafeBufferPointer<UInt8>, from next: Int?, _ body: (Node) -> Void
  ) {
    if let next {
      collect(node, name, from: next, body)
    } else if node.value != nil {
      body(node)
    }
  }

  private static func walk(_ node: Node, _ tokens: ArraySlice<Substring>, _ body: (Value) -> Void) {
    guard let token = tokens.first else {
      if let value = node.value { body(value) }
      return
    }
    switch token {
    case "*":
      for child in node.literal.values { walk(child, tokens.dropFirst(), body) }
    case ">":
      for child in node.literal.values { everyValue(below: child, body) }
    default:
      if let child = node.literal[String(token)] { walk(child, tokens.dropFirst(), body) }
    }
  }

  /// Every value at `node` and under it, along literal branches (concrete names only).
  private static func everyValue(below node: Node, _ body: (Value) -> Void) {
    if let value = node.value { body(value) }
    for child in node.literal.values { everyValue(below: child, body) }
  }

  private static func child(of node: Node, _ token: Substring) -> Node? {
    switch token {
    case "*": node.oneToken
    case ">": node.tail
    default: node.literal[String(token)]
    }
  }

  private static func addChild(to node: Node, _ token: Substring) -> Node {
    let child = Node()
    switch token {
    case "*": node.oneToken = child
    case ">": node.tail = child
    default: node.literal[String(token)] = child
    }
    return child
  }

  private static func removeChild(of node: Node, _ token: Substring) {
    switch token {
    case "*": node.oneToken = nil
    case ">": node.tail = nil
    default: node.literal[String(token)] = nil
    }
  }
}
