/// Writes the server's reply lines: `{"ok":true,"op":…,"id":…,…}` and
/// `{"ok":false,"op":…,"id":…,"error":{"code":…,"message":…}}`, each ending in `\n`.
package enum ReplyEncoder {
  /// Appends a success reply; `fields` appends any further `,"key":value` pairs.
  package static func ok(
    op: RequestOp,
    id: UnsafeRawBufferPointer?,
    to out: inout [UInt8],
    fields: (inout [UInt8]) -> Void = { _ in }
  ) {
    out.append(literal: #"{"ok":true,"op":""#)
    out.append(literal: op.literal)
    out.append(UInt8(ascii: "\""))
    if let id {
      out.append(literal: #","id":"#)
      out.append(contentsOf: id)
    }
    fields(&out)
    out.append(literal: "}\n")
  }

  /// Appends an error reply; `op` is `nil` when the request's op could not be read. An op the
  /// server does not know is quoted as its ``QuotedPrefix``, so the reply stays short however
  /// long the request.
  package static func error(
    op: String?,
    id: UnsafeRawBufferPointer?,
    _ error: ProtocolError,
    to out: inout [UInt8]
  ) {
    out.append(literal: #"{"ok":false,"op":"#)
    if let op {
      JSONStringEncoding.append(QuotedPrefix.of(op), to: &out)
    } else {
      out.append(literal: "null")
    }
    if let id {
      out.append(literal: #","id":"#)
      out.append(contentsOf: id)
    }
    out.append(literal: #","error":{"code":""#)
    out.append(utf8: error.code.rawValue)
    out.append(literal: #"","message":"#)
    JSONStringEncoding.append(error.message, to: &out)
    out.append(literal: "}}\n")
  }

  /// A line for an error that answers no request (`op` and `id` are `null`), such as
  /// `too_many_connections` or `slow_consumer` before the server closes a connection.
  package static func notice(_ error: ProtocolError) -> [UInt8] {
    var line: [UInt8] = []
    self.error(op: nil, id: nil, error, to: &line)
    return line
  }

  /// Appends `,"key":` so that a value can follow.
  package static func key(_ key: StaticString, to out: inout [UInt8]) {
    out.append(literal: #",""#)
    out.append(literal: key)
    out.append(literal: #"":"#)
  }

  /// Appends `,"key":n`.
  package static func integer(_ key: StaticString, _ value: Int, to out: inout [UInt8]) {
    self.key(key, to: &out)
    out.append(decimal: value)
  }
}
