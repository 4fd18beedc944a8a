/// One parsed request line.
///
/// `id` and `value` point into the line being handled (or into a buffer the parser owns for the
/// duration of the call), so a request must not outlive the closure it is handed to.
struct Request {
  var op: RequestOp
  /// The request's `id` as raw JSON bytes, echoed unchanged in the reply.
  var id: UnsafeRawBufferPointer?
  var stream: String?
  /// The published value as raw, validated JSON bytes.
  var value: UnsafeRawBufferPointer?
  var retain = false
  var token: String?
  var algorithm: String?
  /// For `list`: the last name of the previous page; the reply starts after it.
  var after: String?
  /// Whether the line was the text shorthand, so that a hint in the reply can use it too.
  var isShorthand = false

  init(op: RequestOp, id: UnsafeRawBufferPointer? = nil) {
    self.op = op
    self.id = id
  }
}
