@testable import ObservableServer
@testable import ObservableWire

// Adapters from byte arrays and string literals to the pointer-based scanner API, so each test
// states its input once.

func scanValue(_ bytes: [UInt8]) throws(JSONSyntaxError) -> (range: Range<Int>, kind: JSONValueKind)
{
  try bytes.withUnsafeBytes { raw in
    Result { () throws(JSONSyntaxError) in try JSONScanner.scanValue(raw) }
  }.get()
}

func scanValue(_ text: String) throws(JSONSyntaxError) -> (range: Range<Int>, kind: JSONValueKind) {
  try scanValue(Array(text.utf8))
}

func scanObject(_ bytes: [UInt8]) throws(JSONSyntaxError) -> [JSONMember]? {
  try bytes.withUnsafeBytes { raw in
    Result { () throws(JSONSyntaxError) in try JSONScanner.scanObject(raw) }
  }.get()
}

func scanObject(_ text: String) throws(JSONSyntaxError) -> [JSONMember]? {
  try scanObject(Array(text.utf8))
}

/// The error `scanValue` throws for `bytes`, or `nil` when it accepts them.
func syntaxError(_ bytes: [UInt8]) -> JSONSyntaxError? {
  do {
    _ = try scanValue(bytes)
    return nil
  } catch {
    return error
  }
}

func syntaxError(_ text: String) -> JSONSyntaxError? {
  syntaxError(Array(text.utf8))
}

/// Decodes `range` of `bytes` with ``JSONScanner/decodeString(_:_:)``.
func decodeString(_ bytes: [UInt8], _ range: Range<Int>) -> String {
  bytes.withUnsafeBytes { JSONScanner.decodeString($0, range) }
}

/// Validates a whole-document string token, then decodes it, as the server does.
func decodeToken(_ token: String) throws(JSONSyntaxError) -> String {
  let bytes = Array(token.utf8)
  let scanned = try scanValue(bytes)
  return decodeString(bytes, scanned.range)
}

/// The text of `range` within `bytes`, for comparing raw value ranges readably.
func slice(_ bytes: [UInt8], _ range: Range<Int>) -> String {
  String(decoding: bytes[range], as: UTF8.self)
}

/// The encoder's output for `text` on its own.
func encoded(_ text: String) -> String {
  var out: [UInt8] = []
  JSONStringEncoding.append(text, to: &out)
  return String(decoding: out, as: UTF8.self)
}
