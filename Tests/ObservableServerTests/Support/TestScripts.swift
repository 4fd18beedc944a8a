import Foundation

/// The Python peers in `Tests/ObservableServerTests/Scripts`.
enum TestScripts {
  /// Found through this file's path, so no resource declaration is needed; symlinks are
  /// resolved so it also works when the test sources are linked into another package.
  static func url(_ name: String) -> URL {
    URL(fileURLWithPath: #filePath)
      .resolvingSymlinksInPath()
      .deletingLastPathComponent()
      .deletingLastPathComponent()
      .appendingPathComponent("Scripts/\(name)")
  }
}
