import Foundation

/// The executables `swift build` made (`observable-server`, `observable`, `observable-bench`),
/// run by tests as users run them.
public enum BuiltProduct {
  /// The product named `name`, next to the test bundle, where `swift build` puts products.
  public static func url(_ name: String) -> URL {
    let bundle = Bundle.main.bundleURL.deletingLastPathComponent()
    let candidates = [
      bundle, URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(),
    ]
    return candidates.map { $0.appendingPathComponent(name) }
      .first { FileManager.default.isExecutableFile(atPath: $0.path) }
      ?? candidates[0].appendingPathComponent(name)
  }

  /// The test's environment for a child, without the `OBSERVABLE_SERVER*` variables a
  /// developer's shell may set (they would change what the child does), plus `extra`.
  static func environment(_ extra: [String: String]) -> [String: String] {
    ProcessInfo.processInfo.environment
      .filter { !$0.key.hasPrefix("OBSERVABLE_SERVER") }
      .merging(extra) { $1 }
  }
}
