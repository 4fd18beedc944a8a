import Testing

extension LineClient {
  /// One snapshot of the server's counters, through a subscription to `stats` that is ended
  /// again; `subscriptions` does not count the one this read makes.
  public func stats() throws -> [String: Int] {
    let reply = try request(#"{"op":"subscribe","stream":"stats"}"#)
    #expect(reply["ok"] as? Bool == true)
    let value = try read(until: { $0["stream"] as? String == "stats" })["value"]
    try request(#"{"op":"unsubscribe","stream":"stats"}"#)
    var counters = (value as? [String: Any] ?? [:]).compactMapValues { $0 as? Int }
    counters["subscriptions", default: 1] -= 1
    return counters
  }
}
