/// Writes the server's reply lines: `{"ok":true,"op":…,"id":…,…}` and
/// `{"ok":false,"op":…,"id":…,"error":{"code":…,"message":…}}`, each ending in `\n`.
enum ReplyEncoder {
  /// Appends a success reply; `fields` appends any further `,"key":value` pairs.
  static func ok(
    op: RequestOp,
    id: UnsafeRawBufferPointer?,
    to out: inout [UInt8],
    fields: (inout [UInt8]) -> Void = { _ in }
  ) {
    out.append(contentsOf: #"{"ok":true,"op":""#.utf8)
    out.append(contentsOf: op.rawValue.utf8)
    out.append(UInt8(ascii: "\""))
    if let id {
      out.append(contentsOf: #","id":"#.utf8)
      out.append(contentsOf: id)
    }
    fields(&out)
    out.append(contentsOf: "}\n".utf8)
  }

  /// Appends an error reply; `op` is `nil` when the request's op could not be read.
  static func error(
    op: String?,
    id: UnsafeRawBufferPointer?,
    _ error: ProtocolError,
    to out: inout [UInt8]
  ) {
    out.append(contentsOf: #"{"ok":false,"op":"#.utf8)
    if let op {
      JSONStringEncoding.append(op, to: &out)
    } else {
      out.append(contentsOf: "null".utf8)
    }
    if let id {
      out.append(contentsOf: #","id":"#.utf8)
      out.append(contentsOf: id)
    }
    out.append(contentsOf: #","error":{"code":""#.utf8)
    out.append(contentsOf: error.code.rawValue.utf8)
    out.append(contentsOf: #"","message":"#.utf8)
    JSONStringEncoding.append(error.message, to: &out)
    out.append(contentsOf: "}}\n".utf8)
  }

  /// Appends `,"key":` so that a value can follow.
  static func key(_ key: StaticString, to out: inout [UInt8]) {
    out.append(contentsOf: #",""#.utf8)
    out.append(
      contentsOf: UnsafeRawBufferPointer(start: key.utf8Start, count: key.utf8CodeUnitCount))
    out.append(contentsOf: #"":"#.utf8)
  }

  /// Appends `,"key":n`.
  static func integer(_ key: StaticString, _ value: Int, to out: inout [UInt8]) {
    self.key(key, to: &out)
    out.append(contentsOf: String(value).utf8)
  }
}
