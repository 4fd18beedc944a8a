/// A JSON document as a tree, with numbers kept as written (`21.50` stays `21.50`) and object
/// members in document order, duplicates included.
///
/// For the few readers that want every value, such as the `observable` command's `stats` table;
/// the server's request path reads byte ranges from ``JSONScanner`` and never builds a tree.
/// The tree is built from the scanner's ranges, so it accepts exactly what the server accepts.
package indirect enum JSONValue: Equatable, Sendable {
  /// One member of an object.
  package struct Member: Equatable, Sendable {
    package let key: String
    package let value: JSONValue

    package init(key: String, value: JSONValue) {
      self.key = key
      self.value = value
    }
  }

  case null
  case bool(Bool)
  /// A number, as its text.
  case number(String)
  case string(String)
  case array([JSONValue])
  case object([Member])

  /// Reads `bytes` as exactly one JSON value (RFC 8259), with whitespace allowed around it.
  package init(parsing bytes: UnsafeRawBufferPointer) throws(JSONSyntaxError) {
    let root = try JSONScanner.scanChildren(bytes)
    switch root.kind {
    case .array, .object: self = Self.container(root.kind, root.children, in: bytes)
    default: self = Self.value(at: root.range, kind: root.kind, in: bytes)
    }
  }

  /// Reads `text` as exactly one JSON value; `nil` when it is anything else.
  package init?(parsing text: String) {
    var text = text
    let value = text.withUTF8 { utf8 in try? JSONValue(parsing: UnsafeRawBufferPointer(utf8)) }
    guard let value else { return nil }
    self = value
  }

  /// The value at `range` of `bytes`, which the scanner has validated as a value of `kind`.
  private static func value(
    at range: Range<Int>, kind: JSONValueKind, in bytes: UnsafeRawBufferPointer
  ) -> JSONValue {
    switch kind {
    case .null: return .null
    case .bool: return .bool(bytes[range.lowerBound] == UInt8(ascii: "t"))
    case .number:
      return .number(
        String(decoding: UnsafeRawBufferPointer(rebasing: bytes[range]), as: UTF8.self))
    case .string: return .string(JSONScanner.decodeString(bytes, range))
    case .array, .object:
      let inner = UnsafeRawBufferPointer(rebasing: bytes[range])
      // Validated with its document, a nested container cannot fail to scan alone.
      guard let scanned = try? JSONScanner.scanChildren(inner) else {
        preconditionFailure("a container the scanner accepted no longer scans")
      }
      return container(kind, scanned.children, in: inner)
    }
  }

  /// The array or object whose `children` the scanner found in `bytes`.
  private static func container(
    _ kind: JSONValueKind, _ children: [JSONMember], in bytes: UnsafeRawBufferPointer
  ) -> JSONValue {
    if kind == .array {
      return .array(children.map { value(at: $0.value, kind: $0.kind, in: bytes) })
    }
    return .object(
      children.map { Member(key: $0.key, value: value(at: $0.value, kind: $0.kind, in: bytes)) })
  }
}
