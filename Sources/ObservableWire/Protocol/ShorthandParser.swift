/// Parses the text shorthand: `subscribe NAME`, `unsubscribe NAME`, `publish NAME VALUE...`,
/// `retain NAME VALUE...`, `clear NAME`, `subscribe NAME SINCE`, `history NAME [LIMIT]`,
/// `list [NAME [AFTER]]`, `ping`, `help`, `auth [USER] TOKEN`, `compress deflate`,
/// `will NAME VALUE...`, `retainwill NAME VALUE...` and `bye`.
///
/// Command words are case-insensitive, and `sub`, `unsub` and `pub` stand for `subscribe`,
/// `unsubscribe` and `publish`, as people type them at a terminal. A published value is the
/// rest of the line: JSON if it parses as JSON, otherwise a string.
package enum ShorthandParser {
  package static func parse<Output>(
    _ line: UnsafeRawBufferPointer,
    _ body: (Request) throws(RequestRejection) -> Output
  ) throws(RequestRejection) -> Output {
    guard let text = String(validating: line, as: UTF8.self) else {
      throw RequestRejection(error: ProtocolError(.badRequest, "the line is not valid UTF-8"))
    }
    let (typed, rest) = splitWord(Substring(text))
    let word = typed.lowercased()
    guard let op = retained[word] ?? RequestOp(rawValue: aliases[word] ?? word) else {
      throw RequestRejection(
        op: QuotedPrefix.of(typed),
        error: ProtocolError(.unknownOp, "unknown command \"\(QuotedPrefix.of(typed))\"; type help")
      )
    }
    var request = Request(op: op)
    request.isShorthand = true
    switch op {
    case .ping, .help, .bye:
      try expectEnd(rest, op)
      return try body(request)
    case .list:
      let (filter, tail) = splitWord(rest)
      let (after, end) = splitWord(tail)
      try expectEnd(end, op)
      request.stream = filter.isEmpty ? nil : String(filter)
      request.after = after.isEmpty ? nil : String(after)
      return try body(request)
    case .subscribe, .history:
      return try body(parseHistoryArguments(rest, request))
    case .unsubscribe, .clear, .get:
      let (name, tail) = splitWord(rest)
      try expectPresent(name, "\(op.rawValue) NAME")
      try expectEnd(tail, op)
      request.stream = String(name)
      return try body(request)
    case .auth:
      let (first, tail) = splitWord(rest)
      try expectPresent(first, "auth TOKEN")
      // `auth USER TOKEN` names a user of the authorization file; `auth TOKEN` is `--token`'s.
      let (second, end) = splitWord(tail)
      try expectEnd(end, op)
      if second.isEmpty {
        request.token = String(first)
      } else {
        request.user = String(first)
        request.token = String(second)
      }
      return try body(request)
    case .compress:
      let (algorithm, tail) = splitWord(rest)
      try expectPresent(algorithm, "compress deflate")
      try expectEnd(tail, op)
      request.algorithm = String(algorithm)
      return try body(request)
    case .publish, .will:
      let (name, tail) = splitWord(rest)
      let usage = "\(retained[word] != nil ? word : op.rawValue) NAME VALUE"
      try expectPresent(name, usage)
      let valueText = tail.drop { $0 == " " || $0 == "\t" }
      try expectPresent(valueText, usage)
      request.stream = String(name)
      request.retain = retained[word] != nil
      var encoded = Array(valueText.utf8)
      // A JSON value is kept without whitespace around it, as the JSON form of the request does.
      if let json = encoded.withUnsafeBytes({ try? JSONScanner.scanValue($0) }) {
        encoded = Array(encoded[json.range])
      } else {
        encoded.removeAll(keepingCapacity: true)
        JSONStringEncoding.append(String(valueText), to: &encoded)
      }
      let outcome = encoded.withUnsafeBytes { bytes in
        request.value = bytes
        return Result { () throws(RequestRejection) in try body(request) }
      }
      return try outcome.get()
    }
  }

  /// The words that stand for an op with `retain`: `retain` publishes, `retainwill` registers
  /// a will, keeping the value.
  private static let retained: [String: RequestOp] = ["retain": .publish, "retainwill": .will]

  /// The short forms people type, by the op they stand for.
  private static let aliases = ["sub": "subscribe", "unsub": "unsubscribe", "pub": "publish"]

  static func splitWord(_ text: Substring) -> (Substring, Substring) {
    let trimmed = text.drop { $0 == " " || $0 == "\t" }
    let end = trimmed.firstIndex { $0 == " " || $0 == "\t" } ?? trimmed.endIndex
    return (trimmed[..<end], trimmed[end...])
  }

  static func expectPresent(_ word: Substring, _ usage: String) throws(RequestRejection) {
    guard word.isEmpty else { return }
    throw RequestRejection(
      op: usage.split(separator: " ").first.map(String.init),
      error: ProtocolError(.badRequest, "usage: \(usage)"))
  }

  static func expectEnd(_ rest: Substring, _ op: RequestOp) throws(RequestRejection) {
    guard rest.allSatisfy({ $0 == " " || $0 == "\t" }) else {
      throw RequestRejection(
        op: op.rawValue, error: ProtocolError(.badRequest, "unexpected words after \(op.rawValue)"))
    }
  }
}
