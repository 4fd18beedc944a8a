import Foundation

/// Checks on the lines the server writes, made with Foundation rather than the server's own JSON
/// code, so that the encoders are judged by an independent parser.
enum WireJSON {
  enum Failure: Error {
    case notAnObject
  }

  /// Parses one JSON document (fragments allowed) with `JSONSerialization`.
  static func parse(_ bytes: some Sequence<UInt8>) throws -> Any {
    try JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed])
  }

  /// Parses a line that must be a JSON object.
  static func object(_ line: [UInt8]) throws -> [String: Any] {
    guard let object = try parse(line) as? [String: Any] else { throw Failure.notAnObject }
    return object
  }

  /// Parses `text` as JSON.
  static func parse(_ text: String) throws -> Any {
    try parse(Array(text.utf8))
  }

  /// A canonical text for a parsed value (sorted keys), for comparing two values by meaning.
  static func canonical(_ value: Any) -> String {
    guard
      let data = try? JSONSerialization.data(
        withJSONObject: [value], options: [.sortedKeys, .fragmentsAllowed])
    else { return "<not serialisable>" }
    return String(decoding: data, as: UTF8.self)
  }

  /// Whether `line` ends in exactly one `\n` and has no other `\n` or `\r` anywhere.
  static func isOneLine(_ line: [UInt8]) -> Bool {
    guard line.last == 0x0A else { return false }
    return !line.dropLast().contains(0x0A) && !line.contains(0x0D)
  }

  /// Every object key in document order, nested ones as `outer.inner`.
  ///
  /// A key is a string followed by `:`; strings are skipped with their escapes, so text inside
  /// values never counts as a key.
  static func keyPaths(_ line: [UInt8]) -> [String] {
    var paths: [String] = []
    // For each open container: whether it is an object, its own path, and its current key's path.
    var stack: [(isObject: Bool, path: String, keyPath: String?)] = []
    var index = 0
    func childPath() -> String {
      guard let top = stack.last else { return "" }
      return top.isObject ? top.keyPath ?? top.path : top.path
    }
    while index < line.count {
      let byte = line[index]
      switch byte {
      case UInt8(ascii: "{"), UInt8(ascii: "["):
        stack.append((byte == UInt8(ascii: "{"), childPath(), nil))
        index += 1
      case UInt8(ascii: "}"), UInt8(ascii: "]"):
        _ = stack.popLast()
        index += 1
      case UInt8(ascii: "\""):
        var end = index + 1
        while end < line.count, line[end] != UInt8(ascii: "\"") {
          end += line[end] == UInt8(ascii: "\\") ? 2 : 1
        }
        let token = line[index...min(end, line.count - 1)]
        index = end + 1
        var next = index
        while next < line.count, [0x20, 0x09, 0x0A, 0x0D].contains(line[next]) { next += 1 }
        guard next < line.count, line[next] == UInt8(ascii: ":"), let top = stack.last, top.isObject
        else { continue }
        let key = (try? parse(token)) as? String ?? "<undecodable>"
        let path = top.path.isEmpty ? key : top.path + "." + key
        stack[stack.count - 1].keyPath = path
        paths.append(path)
      default:
        index += 1
      }
    }
    return paths
  }
}
