import Foundation
import ObservableAuthorization
import ObservableCredentials
import XCTest

/// Three users whose rules overlap, against every action, on exact names and on patterns.
final class PermissionMatrixTests: XCTestCase {
  static let file = """
    {"users": {
      "ann": {"token": "\(TokenDigest(hashing: "a").text)",
              "subscribe": {"allow": ["room.>", "user.{user}.>"], "deny": ["room.secret"]},
              "publish": {"allow": ["room.*"], "deny": ["room.locked"]},
              "stats": true, "list": true},
      "bob": {"token": "\(TokenDigest(hashing: "b").text)",
              "subscribe": {"allow": ["room.lobby", "user.*.inbox"], "deny": ["user.ann.>"]},
              "publish": ["user.{user}.>"], "list": true},
      "cat": {"token": "\(TokenDigest(hashing: "c").text)",
              "subscribe": {"allow": [">"], "deny": ["room.>"]}, "stats": true}
    }}
    """

  private func access(_ user: String) throws -> (ConnectionAccess, AccessPolicy) {
    let policy = AccessPolicy(file: try AuthorizationFile.parse(Array(Self.file.utf8)))
    let identity = try XCTUnwrap(policy.authenticate(user: user, token: String(user.prefix(1))))
    var access = ConnectionAccess()
    access.authenticated(as: identity, policy: policy)
    return (access, policy)
  }

  func testPublishRetainAndClear() throws {
    // Publish, retain and clear are one permission: each case stands for all three.
    let cases: [(String, String, Bool)] = [
      ("ann", "room.lobby", true), ("ann", "room.locked", false), ("ann", "room.a.b", false),
      ("ann", "user.ann.x", false), ("bob", "user.bob.inbox", true), ("bob", "user.ann.x", false),
      ("bob", "room.lobby", false), ("cat", "room.lobby", false), ("cat", "anything", false),
    ]
    for (user, name, expected) in cases {
      var (access, policy) = try access(user)
      XCTAssertEqual(access.mayPublish(name, policy: policy), expected, "\(user) publish \(name)")
      // A second answer comes from the cache and must be the same.
      XCTAssertEqual(access.mayPublish(name, policy: policy), expected, "\(user) cached \(name)")
    }
  }

  func testSubscribeNamesAndPatterns() throws {
    let cases: [(String, String, PermissionRules.Scope)] = [
      ("ann", "room.lobby", .all), ("ann", "room.secret", .none), ("ann", "room.>", .part),
      ("ann", "room.*", .part), ("ann", "user.ann.>", .all), ("ann", "user.bob.inbox", .none),
      ("ann", ">", .part), ("bob", "room.lobby", .all), ("bob", "room.*", .part),
      ("bob", "user.*.inbox", .part), ("bob", "user.bob.inbox", .all),
      ("bob", "user.ann.inbox", .none), ("bob", "user.ann.>", .none), ("cat", "room.lobby", .none),
      ("cat", "room.>", .none), ("cat", "news.today", .all), ("cat", ">", .part),
      ("cat", "*", .all),
    ]
    for (user, pattern, expected) in cases {
      var (access, policy) = try access(user)
      XCTAssertEqual(
        access.subscribeScope(pattern, policy: policy), expected, "\(user) subscribe \(pattern)")
    }
  }

  func testReceivingOnAPartlyAllowedPattern() throws {
    let cases: [(String, String, Bool)] = [
      ("ann", "room.lobby", true), ("ann", "room.secret", false), ("ann", "user.ann.a", true),
      ("bob", "user.cat.inbox", true), ("bob", "user.ann.inbox", false), ("cat", "news", true),
      ("cat", "room.lobby", false),
    ]
    for (user, name, expected) in cases {
      var (access, policy) = try access(user)
      XCTAssertEqual(access.mayReceive(name, policy: policy), expected, "\(user) receive \(name)")
    }
  }

  func testStatsAndList() throws {
    let cases: [(String, Bool, Bool)] = [
      ("ann", true, true), ("bob", false, true), ("cat", true, false),
    ]
    for (user, stats, list) in cases {
      var (access, policy) = try access(user)
      XCTAssertEqual(access.subscribeScope("stats", policy: policy) == .all, stats, user)
      XCTAssertEqual(access.mayReceive("stats", policy: policy), stats, user)
      XCTAssertEqual(access.permissions.list, list, user)
    }
    // A pattern that matches `stats` gets it only with the permission.
    let everyTopic = Permissions(subscribe: .everything, stats: false)
    XCTAssertEqual(everyTopic.subscribeScope(RulePattern(trusted: ">")), .part)
    XCTAssertFalse(everyTopic.mayReceive("stats"))
  }

  func testWrongTokenUnknownUserAndSharedToken() throws {
    let policy = AccessPolicy(
      sharedToken: "shared", file: try AuthorizationFile.parse(Array(Self.file.utf8)))
    XCTAssertNil(policy.authenticate(user: "ann", token: "b"))
    XCTAssertNil(policy.authenticate(user: "dan", token: "a"))
    XCTAssertNil(policy.authenticate(user: nil, token: "a"))
    XCTAssertEqual(policy.authenticate(user: nil, token: "shared"), .everything)
    XCTAssertEqual(policy.permissions(of: .everything), .everything)
  }

  func testReloadInvalidatesTheCache() throws {
    var (ann, policy) = try access("ann")
    XCTAssertTrue(ann.mayPublish("room.lobby", policy: policy))
    let stricter = Self.file.replacingOccurrences(of: "\"room.locked\"", with: "\"room.lobby\"")
    policy.replace(try AuthorizationFile.parse(Array(stricter.utf8)))
    XCTAssertFalse(ann.mayPublish("room.lobby", policy: policy))
    // A user the reload removes keeps no permission at all.
    let without = try AuthorizationFile.parse(
      Array("{\"users\": {\"bob\": {\"token\": \"\(TokenDigest(hashing: "b").text)\"}}}".utf8))
    policy.replace(without)
    XCTAssertFalse(ann.mayReceive("room.lobby", policy: policy))
    XCTAssertEqual(ann.permissions, Permissions())
  }
}
