import Testing

@testable import ObservableServer
@testable import ObservableWire

/// Names are tokens of `[A-Za-z0-9_-]` joined by `.`, at most 255 bytes; patterns may also use
/// `*` as a whole token and `>` as the whole last token.
@Suite(.timeLimit(.minutes(1)))
struct StreamNameTests {
  @Test(
    "valid names pass as names and as patterns without wildcards",
    arguments: ["a", "clock", "a.b.c", "AZaz09_-", "room-1.user_2", "0", "-", "_", "x.-._.9"])
  func validNames(name: String) throws {
    try StreamName.validate(name)
    #expect(try StreamName.validatePattern(name) == false)
  }

  @Test("the limit is 255 bytes, for names and patterns")
  func length() throws {
    let longest = String(repeating: "a", count: StreamName.maximumLength)
    #expect(longest.utf8.count == 255)
    try StreamName.validate(longest)
    #expect(Self.code { try StreamName.validate(longest + "b") } == .badName)
    #expect(Self.code { _ = try StreamName.validatePattern(longest + "b") } == .badName)

    // With dots: "a.a.…" of 255 bytes is 128 tokens.
    let dotted = Array(repeating: "a", count: 128).joined(separator: ".")
    #expect(dotted.utf8.count == 255)
    try StreamName.validate(dotted)
    #expect(Self.code { try StreamName.validate(dotted + "a") } == .badName)

    let longPattern = String(repeating: "a", count: 253) + ".>"
    #expect(try StreamName.validatePattern(longPattern))
    #expect(Self.code { _ = try StreamName.validatePattern("a" + longPattern) } == .badName)
  }

  @Test(
    "empty names and empty tokens are refused",
    arguments: ["", ".", "..", ".a", "a.", "a..b", "a.b.", ".a.b"])
  func emptyTokens(name: String) {
    #expect(Self.code { try StreamName.validate(name) } == .badName)
    #expect(Self.code { _ = try StreamName.validatePattern(name) } == .badName)
  }

  @Test(
    "characters outside [A-Za-z0-9_-] are refused",
    arguments: [
      "a b", "a/b", "a:b", "a+b", "a#", "$", "a\"b", "a\\b", "é", "a\u{0}", "a\nb", "a\tb", "a,b",
      "ü.b",
    ])
  func badCharacters(name: String) {
    #expect(Self.code { try StreamName.validate(name) } == .badName)
    #expect(Self.code { _ = try StreamName.validatePattern(name) } == .badName)
  }

  @Test("an error message never carries control characters or newlines")
  func messageIsPrintable() throws {
    for name in ["a\nb", "a\u{0}", "x\r\ny", "a\u{1B}[2J"] {
      let message = try #require(Self.error { try StreamName.validate(name) }?.message)
      #expect(
        !message.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }, "\(message)")
    }
  }

  @Test(
    "patterns with wildcards are valid for subscribe and report that they have them",
    arguments: ["*", ">", "a.*", "a.>", "*.b", "a.*.c", "*.*", "*.>", "a.*.>", "*.a.>"])
  func patterns(pattern: String) throws {
    #expect(try StreamName.validatePattern(pattern))
  }

  @Test(
    "wildcards are refused in concrete names", arguments: ["*", ">", "a.*", "a.>", "*.b", "a.*.c"])
  func wildcardsOnlyInPatterns(name: String) {
    #expect(Self.code { try StreamName.validate(name) } == .badName)
  }

  @Test(
    "* and > must be whole tokens",
    arguments: [
      "a*", "*a", "a.b*", "**", "a.*b", "a>", ">a", "a.>b", ">>", "*>", ">*", "a.b-*", "*_",
    ])
  func wholeTokens(pattern: String) {
    #expect(Self.code { _ = try StreamName.validatePattern(pattern) } == .badName)
  }

  @Test("> must be the last token", arguments: [">.a", "a.>.b", ">.>", ">.*", "a.>.>"])
  func tailLast(pattern: String) {
    #expect(Self.code { _ = try StreamName.validatePattern(pattern) } == .badName)
  }

  @Test("patterns with empty tokens are refused", arguments: ["a..*", "*.", ".>", "*..>", "a.*."])
  func patternEmptyTokens(pattern: String) {
    #expect(Self.code { _ = try StreamName.validatePattern(pattern) } == .badName)
  }

  /// The error `body` throws, or `nil`.
  private static func error(_ body: () throws -> Void) -> ProtocolError? {
    do {
      try body()
      return nil
    } catch {
      return error as? ProtocolError ?? ProtocolError(.unsupported, "not a ProtocolError: \(error)")
    }
  }

  /// The code of the error `body` throws, or `nil` when it throws nothing.
  private static func code(_ body: () throws -> Void) -> ErrorCode? {
    error(body)?.code
  }
}
