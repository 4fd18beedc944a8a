import ObservableAuthorization
import XCTest

/// Comparing two patterns: whether a rule covers a subscription, or touches it at all.
final class RulePatternTests: XCTestCase {
  private func covers(_ rule: String, _ other: String) -> Bool {
    RulePattern(trusted: rule).covers(RulePattern(trusted: other))
  }

  private func overlaps(_ rule: String, _ other: String) -> Bool {
    RulePattern(trusted: rule).overlaps(RulePattern(trusted: other))
  }

  func testCovers() {
    let cases: [(String, String, Bool)] = [
      (">", "a", true), (">", "a.b.>", true), (">", "*", true),
      ("a.>", "a.b", true), ("a.>", "a.*.c", true), ("a.>", "a", false), ("a.>", "a.>", true),
      ("a.>", ">", false), ("a.*", "a.b", true), ("a.*", "a.*", true), ("a.*", "a.>", false),
      ("a.*", "a.b.c", false), ("a.b", "a.b", true), ("a.b", "a.*", false), ("a.b", "a", false),
      ("*.b", "a.b", true), ("*.b", "a.*", false), ("a.*.c", "a.*.c", true),
    ]
    for (rule, other, expected) in cases {
      XCTAssertEqual(covers(rule, other), expected, "\(rule) covers \(other)")
    }
  }

  func testOverlaps() {
    let cases: [(String, String, Bool)] = [
      (">", "a", true), ("a.>", "a", false), ("a.>", "*.b", true), ("a.*", "*.b", true),
      ("a.*", "b.*", false), ("a.b", "a.c", false), ("a.*", "a.b.c", false),
      ("a.*.c", "a.b.>", true), ("a", ">", true), ("a.b", "a.b", true), ("*", "a.b", false),
    ]
    for (rule, other, expected) in cases {
      XCTAssertEqual(overlaps(rule, other), expected, "\(rule) overlaps \(other)")
      XCTAssertEqual(overlaps(other, rule), expected, "\(other) overlaps \(rule)")
    }
  }

  func testScopeOfPatterns() {
    let rules = PermissionRules(
      allow: [RulePattern(trusted: "room.*"), RulePattern(trusted: "user.ann.>")],
      deny: [RulePattern(trusted: "room.secret")])
    XCTAssertEqual(rules.scope(of: RulePattern(trusted: "room.lobby")), .all)
    XCTAssertEqual(rules.scope(of: RulePattern(trusted: "room.secret")), .none)
    XCTAssertEqual(rules.scope(of: RulePattern(trusted: "room.*")), .part)
    XCTAssertEqual(rules.scope(of: RulePattern(trusted: ">")), .part)
    XCTAssertEqual(rules.scope(of: RulePattern(trusted: "user.ann.*")), .all)
    XCTAssertEqual(rules.scope(of: RulePattern(trusted: "user.bob.*")), .none)
    XCTAssertEqual(rules.scope(of: RulePattern(trusted: "room.a.b")), .none)
  }
}
