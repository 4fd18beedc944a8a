import Foundation

/// `Scripts/history_resume.py`, the subscriber cut off again and again while a publisher
/// writes: what it saw, as the JSON object it prints.
enum HistoryResumeScript {
  /// Runs the script with `arguments` (through `launcher`, when given) and returns its report.
  static func run(
    _ arguments: [String], timeout: Duration, launcher: [String] = []
  ) throws -> [String: Any] {
    let output = try PythonScript(name: "history_resume.py").run(
      arguments, importing: "websockets", timeout: timeout, launcher: launcher)
    let firstLine = output.split(separator: UInt8(ascii: "\n")).first ?? []
    return try JSONSerialization.jsonObject(with: Data(firstLine)) as? [String: Any] ?? [:]
  }
}
