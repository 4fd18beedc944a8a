import Testing

@testable import ObservableServer
@testable import ObservableWire

/// `*` matches exactly one token, a final `>` one or more trailing tokens, and a pattern without
/// wildcards only the identical name.
@Suite(.timeLimit(.minutes(1)))
struct TopicPatternTests {
  struct Case: Sendable, CustomTestStringConvertible {
    let pattern: String
    let name: String
    let matches: Bool

    var testDescription: String { "\(pattern) \(matches ? "matches" : "does not match") \(name)" }
  }

  static let table: [Case] = [
    // One token for *.
    Case(pattern: "a.*", name: "a.b", matches: true),
    Case(pattern: "a.*", name: "a.zz-9", matches: true),
    Case(pattern: "a.*", name: "a", matches: false),
    Case(pattern: "a.*", name: "a.b.c", matches: false),
    Case(pattern: "a.*", name: "b.c", matches: false),
    Case(pattern: "a.*", name: "ab.c", matches: false),
    Case(pattern: "*.b", name: "a.b", matches: true),
    Case(pattern: "*.b", name: "x.b", matches: true),
    Case(pattern: "*.b", name: "b", matches: false),
    Case(pattern: "*.b", name: "a.a.b", matches: false),
    Case(pattern: "*.b", name: "a.b.c", matches: false),
    Case(pattern: "*.b", name: "a.c", matches: false),
    Case(pattern: "*", name: "a", matches: true),
    Case(pattern: "*", name: "a.b", matches: false),
    Case(pattern: "*.*", name: "a.b", matches: true),
    Case(pattern: "*.*", name: "a", matches: false),
    Case(pattern: "*.*", name: "a.b.c", matches: false),
    Case(pattern: "a.*.c", name: "a.b.c", matches: true),
    Case(pattern: "a.*.c", name: "a.c", matches: false),
    Case(pattern: "a.*.c", name: "a.b.b.c", matches: false),
    Case(pattern: "a.*.c", name: "a.b.d", matches: false),
    // One or more tokens for >.
    Case(pattern: "a.>", name: "a.b", matches: true),
    Case(pattern: "a.>", name: "a.b.c", matches: true),
    Case(pattern: "a.>", name: "a.b.c.d.e", matches: true),
    Case(pattern: "a.>", name: "a", matches: false),
    Case(pattern: "a.>", name: "b.c", matches: false),
    Case(pattern: "a.>", name: "ab.c", matches: false),
    Case(pattern: ">", name: "a", matches: true),
    Case(pattern: ">", name: "a.b.c", matches: true),
    Case(pattern: "*.>", name: "a", matches: false),
    Case(pattern: "*.>", name: "a.b", matches: true),
    Case(pattern: "*.>", name: "a.b.c", matches: true),
    Case(pattern: "a.*.>", name: "a.b", matches: false),
    Case(pattern: "a.*.>", name: "a.b.c", matches: true),
    Case(pattern: "a.*.>", name: "x.b.c", matches: false),
    // Exact names.
    Case(pattern: "a.b", name: "a.b", matches: true),
    Case(pattern: "a.b", name: "a.bc", matches: false),
    Case(pattern: "a.b", name: "a.b.c", matches: false),
    Case(pattern: "a.b", name: "a", matches: false),
    Case(pattern: "a.b", name: "A.b", matches: false),
    Case(pattern: "a", name: "ab", matches: false),
    Case(pattern: "ab", name: "a", matches: false),
    Case(pattern: "clock", name: "clock", matches: true),
  ]

  @Test("matching table", arguments: table)
  func matching(_ entry: Case) {
    #expect(TopicPattern(entry.pattern).matches(entry.name) == entry.matches)
  }

  @Test("the pattern keeps its text and compares by it")
  func text() {
    #expect(TopicPattern("a.*.>").text == "a.*.>")
    #expect(TopicPattern("a.*") == TopicPattern("a.*"))
    #expect(TopicPattern("a.*") != TopicPattern("a.>"))
    #expect(Set([TopicPattern("a.*"), TopicPattern("a.*"), TopicPattern("b")]).count == 2)
  }
}
