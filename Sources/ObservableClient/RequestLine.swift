/// The request lines the client sends, as compact JSON ending in `\n`.
package enum RequestLine {
  /// `{"op":"subscribe","stream":NAME}` and the like, for ops with only a stream.
  static func stream(_ op: String, _ name: String) -> [UInt8] {
    Array(#"{"op":"\#(op)","stream":\#(quoted(name))}"#.utf8) + [0x0A]
  }

  /// `{"op":"subscribe","stream":NAME}`, with `"pos":true` when `positions` (a server that keeps
  /// history), and `"since":POS` as well when resuming.
  static func subscribe(_ name: String, positions: Bool, since: String?) -> [UInt8] {
    guard positions else { return stream("subscribe", name) }
    let resume = since.map { #","since":\#(quoted($0))"# } ?? ""
    return Array(#"{"op":"subscribe","stream":\#(quoted(name)),"pos":true\#(resume)}"#.utf8) + [
      0x0A
    ]
  }

  /// `{"op":"history","stream":NAME}`, with `"limit":N` when given.
  static func history(_ name: String, limit: Int?) -> [UInt8] {
    let bound = limit.map { #","limit":\#($0)"# } ?? ""
    return Array(#"{"op":"history","stream":\#(quoted(name))\#(bound)}"#.utf8) + [0x0A]
  }

  /// `{"op":"publish","stream":NAME,"value":VALUE}`, with `"retain":true` when asked.
  ///
  /// `value` must be valid JSON; its line breaks (which valid JSON has only as whitespace) become
  /// spaces, so that it stays one line.
  static func publish(_ name: String, value: [UInt8], retain: Bool) -> [UInt8] {
    valueRequest("publish", name, value: value, retain: retain)
  }

  /// `{"op":"will","stream":NAME,"value":VALUE}`, with `"retain":true` when asked; `value` as
  /// for ``publish(_:value:retain:)``.
  static func will(_ name: String, value: [UInt8], retain: Bool) -> [UInt8] {
    valueRequest("will", name, value: value, retain: retain)
  }

  /// `{"op":OP,"stream":NAME,"value":VALUE}`, with `"retain":true` when asked.
  private static func valueRequest(_ op: String, _ name: String, value: [UInt8], retain: Bool)
    -> [UInt8]
  {
    var line = Array(#"{"op":"\#(op)","stream":\#(quoted(name)),"value":"#.utf8)
    line.append(contentsOf: value.lazy.map { $0 == 0x0A || $0 == 0x0D ? 0x20 : $0 })
    line.append(contentsOf: (retain ? #","retain":true}"# : "}").utf8)
    line.append(0x0A)
    return line
  }

  /// `{"op":"will","stream":NAME,"value":null}`, which withdraws the connection's will.
  static func withdrawWill(_ name: String) -> [UInt8] {
    Array(#"{"op":"will","stream":\#(quoted(name)),"value":null}"#.utf8) + [0x0A]
  }

  /// A request with no argument: `{"op":"list"}`, `{"op":"ping"}`.
  static func plain(_ op: String) -> [UInt8] {
    Array(#"{"op":"\#(op)"}"#.utf8) + [0x0A]
  }

  /// `{"op":"list"}`, with `"stream":FILTER` and `"after":NAME` when given.
  static func list(_ filter: String?, after: String?) -> [UInt8] {
    var text = #"{"op":"list""#
    if let filter { text += #","stream":\#(quoted(filter))"# }
    if let after { text += #","after":\#(quoted(after))"# }
    return Array((text + "}").utf8) + [0x0A]
  }

  /// `{"op":"auth","token":TOKEN}`, with `"user":USER` for a user of the server's auth file.
  static func auth(_ token: String, user: String? = nil) -> [UInt8] {
    let named = user.map { #""user":\#(quoted($0)),"# } ?? ""
    return Array(#"{"op":"auth",\#(named)"token":\#(quoted(token))}"#.utf8) + [0x0A]
  }

  /// `{"op":"auth","jwt":TOKEN}`: a signed token instead of a user's token.
  static func auth(signedToken: String) -> [UInt8] {
    Array(#"{"op":"auth","jwt":\#(quoted(signedToken))}"#.utf8) + [0x0A]
  }

  /// `{"op":"compress","algorithm":"deflate"}`.
  static let compress = Array(#"{"op":"compress","algorithm":"deflate"}"#.utf8) + [0x0A]

  /// `text` as a JSON string literal; the `observable` command writes its values with it too.
  package static func quoted(_ text: String) -> String {
    var out = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      case _ where scalar.value < 0x20:
        let hex = String(scalar.value, radix: 16)
        out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out + "\""
  }
}
