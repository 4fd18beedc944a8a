import XCTest

@testable import NATS

/// Back-off bounds and the rotation over known servers.
final class NATSReconnectPolicyTests: XCTestCase {
  /// A generator that always gives the same value, to reach the ends of the jitter range.
  private struct FixedGenerator: RandomNumberGenerator {
    let value: UInt64
    mutating func next() -> UInt64 { value }
  }

  func testDelaysGrowWithinJitterAndStopAtTheCap() {
    let policy = NATSReconnectPolicy(
      initialDelay: .milliseconds(100), multiplier: 2, maxDelay: .seconds(2), jitter: 0.5)
    var generator = SystemRandomNumberGenerator()
    for failures in 1...200 {
      let base = min(0.1 * Double(1 << min(failures - 1, 20)), 2.0)
      for _ in 0..<50 {
        let delay = policy.delay(afterFailures: failures, using: &generator)
        XCTAssertLessThanOrEqual(
          delay, .milliseconds(Int64((base * 1000).rounded())), "\(failures)")
        XCTAssertGreaterThanOrEqual(
          delay, .milliseconds(Int64((base * 500).rounded(.down))), "\(failures)")
      }
    }
  }

  func testJitterSpreadsTheWholeRange() {
    let policy = NATSReconnectPolicy(initialDelay: .seconds(1), maxDelay: .seconds(1), jitter: 0.3)
    var low = FixedGenerator(value: 0)
    var high = FixedGenerator(value: .max)
    XCTAssertEqual(policy.delay(afterFailures: 1, using: &low), .seconds(1))
    let shortest = policy.delay(afterFailures: 1, using: &high)
    XCTAssertGreaterThanOrEqual(shortest, .milliseconds(700))
    XCTAssertLessThan(shortest, .milliseconds(701))
  }

  func testPoolTriesEveryServerAtOnceThenBacksOff() throws {
    var pool = NATSServerPool(configured: [
      try NATSServerURL(parsing: "nats://u:p@a:1"), try NATSServerURL(parsing: "nats://a:1"),
    ])
    XCTAssertEqual(pool.servers.count, 1, "the same server twice is kept once")
    XCTAssertEqual(pool.learn(connectURLs: ["b:2", "a:1", "c:3", "bad::x"]), 2)
    XCTAssertEqual(pool.learn(connectURLs: ["b:2"]), 0)
    let policy = NATSReconnectPolicy(initialDelay: .seconds(1), maxDelay: .seconds(8), jitter: 0)
    var generator = SystemRandomNumberGenerator()
    var attempts: [(String, Duration)] = []
    for _ in 0..<6 {
      let attempt = pool.nextAttempt(policy: policy, using: &generator)
      attempts.append((attempt.server.description, attempt.delay))
      XCTAssertEqual(attempt.server.credentials, .user(name: "u", password: "p"))
      pool.attemptFailed()
    }
    XCTAssertEqual(
      attempts.map(\.0),
      ["nats://a:1", "nats://b:2", "nats://c:3", "nats://a:1", "nats://b:2", "nats://c:3"])
    XCTAssertEqual(attempts.map(\.1), [.zero, .zero, .zero, .seconds(1), .seconds(2), .seconds(4)])
    pool.connected()
    XCTAssertEqual(pool.nextAttempt(policy: policy, using: &generator).delay, .zero)
  }
}
