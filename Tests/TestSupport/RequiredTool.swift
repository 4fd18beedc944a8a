import Foundation
import XCTest

/// A tool or kernel feature a test needs that a machine may lack (`nats-server`, io_uring, a
/// network namespace): one answer for every test target.
///
/// Outside CI the test is skipped, with a reason. Under CI (`CI=true`) it fails instead and
/// names what is missing, so that a broken install step cannot pass by hiding the tests.
public enum RequiredTool {
  /// The failure under CI.
  public struct Missing: Error, CustomStringConvertible {
    public let description: String
  }

  /// Whether `environment` says the tests run under CI.
  public static func isCI(_ environment: [String: String] = ProcessInfo.processInfo.environment)
    -> Bool
  {
    ["true", "1", "yes"].contains(environment["CI"]?.lowercased() ?? "")
  }

  /// For Swift Testing's `.enabled(if:)`: whether a test that needs a tool runs, which it does
  /// under CI even without the tool, so that ``require(_:_:environment:)`` fails it.
  public static func runs(_ available: Bool) -> Bool { available || isCI() }

  /// Returns if `available`; otherwise throws ``Missing`` under CI and `XCTSkip` outside.
  public static func require(
    _ available: Bool, _ tool: String,
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) throws {
    guard !available else { return }
    throw missing(tool, environment: environment)
  }

  /// What a test throws when `tool` is missing: ``Missing`` under CI, `XCTSkip` outside.
  public static func missing(
    _ tool: String, environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> any Error {
    guard isCI(environment) else { return XCTSkip("\(tool) is missing") }
    return Missing(description: "\(tool) is missing, and CI=true: tests that need it must run")
  }
}
