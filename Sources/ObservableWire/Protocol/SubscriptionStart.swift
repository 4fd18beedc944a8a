/// Where a subscription with positions starts, as its reply says: whether a resume reached
/// back to its `since`, and, for one without `since`, the position it starts after.
///
/// A client keeps `after` until a value arrives: cut off before any does, it resumes with it
/// as `since` and loses nothing published meanwhile. Without it, such a client could only
/// subscribe afresh, silently missing whatever was published while it was away.
package struct SubscriptionStart: Equatable, Sendable {
  /// Whether the history reached back to `since`; `nil` for a subscription without it.
  package var recovered: Bool?
  /// For a subscription without `since`: every value after this position reaches it (a
  /// retained value sent first may be older). `nil` for a resume, whose client has its own.
  package var after: StreamPosition?

  package init(recovered: Bool?, after: StreamPosition?) {
    self.recovered = recovered
    self.after = after
  }

  /// Appends the reply's `"recovered"` and `"pos"` members, each when there is one.
  package func appendMembers(to out: inout [UInt8]) {
    if let recovered {
      ReplyEncoder.key("recovered", to: &out)
      out.append(contentsOf: (recovered ? "true" : "false").utf8)
    }
    if let after {
      ReplyEncoder.key("pos", to: &out)
      out.append(UInt8(ascii: "\""))
      after.append(to: &out)
      out.append(UInt8(ascii: "\""))
    }
  }
}
