/// One element of a `Sec-WebSocket-Extensions` list: an extension name and its parameters
/// (RFC 6455 section 9.1).
public struct WebSocketExtensionOffer: Sendable, Hashable {
  /// A parameter; `value` is nil when the parameter was given without `=`.
  public struct Parameter: Sendable, Hashable {
    /// The parameter's name, lower-cased.
    public let name: String
    /// The value, unquoted; nil when absent.
    public let value: String?
  }

  /// The extension's name, lower-cased (`permessage-deflate`).
  public let name: String
  /// The parameters in the order offered, repeats kept so they can be refused.
  public let parameters: [Parameter]

  /// Every offer in `headers`' `Sec-WebSocket-Extensions` fields, in preference order.
  /// Elements that break the grammar are left out: declining an offer is always allowed.
  public static func offers(in headers: HTTPHeaders) -> [WebSocketExtensionOffer] {
    headers.values("Sec-WebSocket-Extensions").flatMap { field in
      splitOutsideQuotes(Substring(field), at: ",").compactMap(parse)
    }
  }

  /// One list element, or nil when it is malformed.
  static func parse(_ element: Substring) -> WebSocketExtensionOffer? {
    let parts = splitOutsideQuotes(element, at: ";").map { $0.trimmingOptionalWhitespace() }
    guard let name = parts.first, isToken(name) else { return nil }
    var parameters: [Parameter] = []
    for part in parts.dropFirst() {
      guard let parameter = parseParameter(part) else { return nil }
      parameters.append(parameter)
    }
    return WebSocketExtensionOffer(name: name.lowercased(), parameters: parameters)
  }

  private static func parseParameter(_ text: String) -> Parameter? {
    guard let equals = text.firstIndex(of: "=") else {
      return isToken(text) ? Parameter(name: text.lowercased(), value: nil) : nil
    }
    let name = text[..<equals].trimmingOptionalWhitespace()
    var value = text[text.index(after: equals)...].trimmingOptionalWhitespace()
    guard isToken(name) else { return nil }
    if value.hasPrefix("\"") {
      guard let unquoted = unquote(value) else { return nil }
      value = unquoted
    }
    // RFC 6455 section 9.1: a quoted value must still be a token once unquoted.
    return isToken(value) ? Parameter(name: name.lowercased(), value: value) : nil
  }

  /// The content of a quoted-string, escapes resolved; nil when it is not one.
  private static func unquote(_ text: String) -> String? {
    var characters = Array(text.dropFirst())
    guard characters.last == "\"" else { return nil }
    characters.removeLast()
    var result = ""
    var escaped = false
    for character in characters {
      if escaped {
        result.append(character)
        escaped = false
      } else if character == "\\" {
        escaped = true
      } else if character == "\"" {
        return nil
      } else {
        result.append(character)
      }
    }
    return escaped ? nil : result
  }

  private static func isToken(_ text: String) -> Bool {
    !text.isEmpty && text.utf8.allSatisfy(HTTPHeadGrammar.isTokenCharacter)
  }

  /// Splits at `separator` wherever it is not inside a quoted-string.
  private static func splitOutsideQuotes(_ text: Substring, at separator: Character) -> [Substring]
  {
    var pieces: [Substring] = []
    var start = text.startIndex
    var quoted = false
    var escaped = false
    var index = text.startIndex
    while index < text.endIndex {
      let character = text[index]
      if escaped {
        escaped = false
      } else if quoted && character == "\\" {
        escaped = true
      } else if character == "\"" {
        quoted.toggle()
      } else if !quoted && character == separator {
        pieces.append(text[start..<index])
        start = text.index(after: index)
      }
      index = text.index(after: index)
    }
    pieces.append(text[start...])
    return pieces
  }
}
