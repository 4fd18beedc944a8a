/// The rules for stream names and subscription patterns.
///
/// A name is tokens of `[A-Za-z0-9_-]` joined by `.`, at most 255 bytes. A pattern may also use
/// `*` for exactly one token and `>` as its last token for one or more tokens.
package enum StreamName {
  /// The longest name, in bytes.
  static let maximumLength = 255

  /// Checks a concrete name, as used for publish.
  package static func validate(_ name: String) throws(ProtocolError) {
    try check(name, allowWildcards: false)
  }

  /// Checks a name or pattern, as used for subscribe; returns whether it has wildcards.
  package static func validatePattern(_ name: String) throws(ProtocolError) -> Bool {
    try check(name, allowWildcards: true)
  }

  @discardableResult
  private static func check(_ name: String, allowWildcards: Bool) throws(ProtocolError) -> Bool {
    let bytes = name.utf8
    guard !bytes.isEmpty else { throw ProtocolError(.badName, "stream name is empty") }
    guard bytes.count <= maximumLength else {
      throw ProtocolError(.badName, "stream name is longer than \(maximumLength) bytes")
    }
    var hasWildcard = false
    var tokenLength = 0
    var tokenIsWildcard = false
    var sawTail = false
    for byte in bytes {
      if sawTail { throw ProtocolError(.badName, "'>' must be the last token of \(quoted(name))") }
      switch byte {
      case UInt8(ascii: "."):
        guard tokenLength > 0 else {
          throw ProtocolError(.badName, "empty token in \(quoted(name))")
        }
        tokenLength = 0
        tokenIsWildcard = false
        continue
      case UInt8(ascii: "*"), UInt8(ascii: ">"):
        guard allowWildcards else {
          throw ProtocolError(.badName, "wildcards are only for subscribe: \(quoted(name))")
        }
        guard tokenLength == 0 else {
          throw ProtocolError(.badName, "a wildcard must be a whole token in \(quoted(name))")
        }
        hasWildcard = true
        tokenIsWildcard = true
        sawTail = byte == UInt8(ascii: ">")
      case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
        UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "-"):
        guard !tokenIsWildcard else {
          throw ProtocolError(.badName, "a wildcard must be a whole token in \(quoted(name))")
        }
      default:
        throw ProtocolError(
          .badName, "stream names are tokens of [A-Za-z0-9_-] joined by '.': \(quoted(name))")
      }
      tokenLength += 1
    }
    guard tokenLength > 0 else { throw ProtocolError(.badName, "empty token in \(quoted(name))") }
    return hasWildcard
  }

  private static func quoted(_ name: String) -> String {
    let shown = name.count > 64 ? name.prefix(64) + "…" : Substring(name)
    return
      "'\(shown.unicodeScalars.map { $0.isASCII && $0.value >= 32 ? String($0) : "?" }.joined())'"
  }
}
