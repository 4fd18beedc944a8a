import Foundation
import TestSupport

extension PythonProcess {
  /// A script in `Tests/WebSocketTests/Scripts`, found through this file's path.
  static func script(_ name: String) -> String {
    URL(fileURLWithPath: #filePath).resolvingSymlinksInPath()
      .deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("Scripts/\(name)").path
  }
}
