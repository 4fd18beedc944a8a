extension JSONValue {
  /// The value as compact JSON text: no whitespace between tokens, numbers as written, strings
  /// encoded by ``JSONStringEncoding`` (so slashes are not escaped).
  package var compactText: String {
    var out: [UInt8] = []
    appendCompact(to: &out)
    return String(decoding: out, as: UTF8.self)
  }

  /// Appends ``compactText`` to `out`.
  package func appendCompact(to out: inout [UInt8]) {
    switch self {
    case .null: out.append(contentsOf: "null".utf8)
    case .bool(let flag): out.append(contentsOf: (flag ? "true" : "false").utf8)
    case .number(let text): out.append(contentsOf: text.utf8)
    case .string(let text): JSONStringEncoding.append(text, to: &out)
    case .array(let elements):
      out.append(UInt8(ascii: "["))
      for (index, element) in elements.enumerated() {
        if index > 0 { out.append(UInt8(ascii: ",")) }
        element.appendCompact(to: &out)
      }
      out.append(UInt8(ascii: "]"))
    case .object(let members):
      out.append(UInt8(ascii: "{"))
      for (index, member) in members.enumerated() {
        if index > 0 { out.append(UInt8(ascii: ",")) }
        JSONStringEncoding.append(member.key, to: &out)
        out.append(UInt8(ascii: ":"))
        member.value.appendCompact(to: &out)
      }
      out.append(UInt8(ascii: "}"))
    }
  }
}
