/// The topics a `list` pattern filter selects, and the stretch of name order that holds them.
///
/// Every name a pattern matches starts with the pattern's literal tokens before its first
/// wildcard (`room.` for `room.*.temp`), and the names with a given start are neighbours in
/// name order: a page walks that stretch only. A pattern that starts with a wildcard has no
/// such start, and its stretch is every topic.
package struct TopicRange {
  /// The literal tokens before the first wildcard, each followed by `.`; empty when the
  /// pattern starts with a wildcard.
  package let prefix: String

  /// The range of an already validated pattern (with at least one wildcard).
  package init(pattern: String) {
    let tokens = pattern.split(separator: ".", omittingEmptySubsequences: false)
    self.tokens = tokens.map {
      switch $0 {
      case "*": .oneToken
      case ">": .tail
      default: .literal(Array($0.utf8))
      }
    }
    let literal = tokens.prefix { $0 != "*" && $0 != ">" }
    prefix = literal.isEmpty ? "" : literal.joined(separator: ".") + "."
    prefixBytes = Array(prefix.utf8)
  }

  /// Where a name at or after the start of the stretch stands.
  package enum Place {
    /// In the stretch, and matched by the pattern.
    case matched
    /// In the stretch, but not matched.
    case unmatched
    /// Past the stretch: no later name can match.
    case past
  }

  /// Where `name`, a topic name not before ``prefix`` in name order, stands.
  ///
  /// Compares bytes, without splitting the name: a page may look at thousands of names.
  package func place(of name: String) -> Place {
    var name = name
    return name.withUTF8 { bytes in
      guard bytes.count >= prefixBytes.count,
        prefixBytes.withUnsafeBufferPointer({
          $0.elementsEqual(UnsafeBufferPointer(rebasing: bytes[0..<$0.count]))
        })
      else { return .past }
      return matches(bytes) ? .matched : .unmatched
    }
  }

  /// Whether the pattern matches the name `bytes`, token by token.
  private func matches(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    var start = 0
    var nameEnded = false
    for token in tokens {
      if case .tail = token { return !nameEnded }
      guard !nameEnded else { return false }
      var end = start
      while end < bytes.count, bytes[end] != UInt8(ascii: ".") { end += 1 }
      if case .literal(let literal) = token {
        guard
          literal.withUnsafeBufferPointer({
            $0.elementsEqual(UnsafeBufferPointer(rebasing: bytes[start..<end]))
          })
        else { return false }
      }
      start = end + 1
      nameEnded = end == bytes.count
    }
    return nameEnded
  }

  private let tokens: [Token]
  private let prefixBytes: [UInt8]

  private enum Token {
    case literal([UInt8])
    /// `*`
    case oneToken
    /// A final `>`.
    case tail
  }
}
