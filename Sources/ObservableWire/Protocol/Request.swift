/// One parsed request line.
///
/// `id` and `value` point into the line being handled (or into a buffer the parser owns for the
/// duration of the call), so a request must not outlive the closure it is handed to.
package struct Request {
  package var op: RequestOp
  /// The request's `id` as raw JSON bytes, echoed unchanged in the reply.
  package var id: UnsafeRawBufferPointer?
  package var stream: String?
  /// The published value as raw, validated JSON bytes.
  package var value: UnsafeRawBufferPointer?
  package var retain = false
  package var token: String?
  /// For `auth`: the user of the authorization file whose `token` this is.
  package var user: String?
  /// For `auth`: a signed token (JWT) instead of `user` and `token`.
  package var jwt: String?
  package var algorithm: String?
  /// For `list`: the last name of the previous page; the reply starts after it.
  package var after: String?
  /// For `subscribe`: whether deliveries carry their position (`"pos":true`).
  package var positions = false
  /// For `subscribe`: the position to resume after (`"since"`), as the client sent it.
  package var since: String?
  /// For `history`: how many values at most.
  package var limit: Int?
  /// Whether the line was the text shorthand, so that a hint in the reply can use it too.
  package var isShorthand = false

  package init(op: RequestOp, id: UnsafeRawBufferPointer? = nil) {
    self.op = op
    self.id = id
  }
}
