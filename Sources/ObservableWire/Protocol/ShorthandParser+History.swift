/// The shorthand of history: `subscribe NAME [SINCE]` and `history NAME [LIMIT]`.
extension ShorthandParser {
  /// Reads the name and the optional second word of `subscribe` (a position to resume after)
  /// or `history` (how many values).
  static func parseHistoryArguments(
    _ rest: Substring, _ request: Request
  ) throws(RequestRejection) -> Request {
    var request = request
    let op = request.op
    let (name, tail) = splitWord(rest)
    let (second, end) = splitWord(tail)
    let usage = op == .history ? "history NAME [LIMIT]" : "subscribe NAME [SINCE]"
    try expectPresent(name, usage)
    try expectEnd(end, op)
    request.stream = String(name)
    guard !second.isEmpty else { return request }
    if op == .subscribe {
      request.since = String(second)
      return request
    }
    guard let limit = Int(second), (1...1_000_000).contains(limit) else {
      throw RequestRejection(
        op: op.rawValue,
        error: ProtocolError(.badRequest, "LIMIT must be a whole number from 1 to 1000000"))
    }
    request.limit = limit
    return request
  }
}
