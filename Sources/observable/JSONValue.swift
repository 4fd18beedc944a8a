import ObservableClient

/// A JSON value read from text, with numbers kept as written (so `21.50` prints as `21.50`) and
/// object members in the order they came.
///
/// The command's own reader, because Foundation's `JSONSerialization` is not in
/// FoundationEssentials, and `JSONDecoder` would turn numbers into `Double`.
indirect enum JSONValue: Equatable {
  /// One member of an object.
  struct Member: Equatable {
    let key: String
    let value: JSONValue
  }

  case null
  case bool(Bool)
  /// A number, as its text.
  case number(String)
  case string(String)
  case array([JSONValue])
  case object([Member])

  /// Reads `text` as exactly one JSON value (RFC 8259), with whitespace allowed around it;
  /// `nil` when it is anything else.
  init?(parsing text: String) {
    var reader = JSONReader(Array(text.utf8))
    guard let value = reader.value(depth: 0), reader.atEnd else { return nil }
    self = value
  }

  /// The value as compact JSON text; numbers and strings as written, slashes not escaped.
  var compactText: String {
    switch self {
    case .null: "null"
    case .bool(let flag): flag ? "true" : "false"
    case .number(let text): text
    case .string(let text): Self.quoted(text)
    case .array(let elements): "[" + elements.map(\.compactText).joined(separator: ",") + "]"
    case .object(let members):
      "{"
        + members.map { Self.quoted($0.key) + ":" + $0.value.compactText }
        .joined(separator: ",") + "}"
    }
  }

  /// `text` as a JSON string literal.
  static func quoted(_ text: String) -> String { RequestLine.quoted(text) }
}
