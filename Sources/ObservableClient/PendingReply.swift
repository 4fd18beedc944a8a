/// What waits for the next reply: replies come one per request, in request order, so the
/// client keeps these in a queue and pairs each reply with the oldest.
enum PendingReply {
  /// A caller awaiting the reply (publish, list, ping).
  case caller(CheckedContinuation<Result<ServerLine, ClientError>, Never>)
  /// The client's own `subscribe` for a name with local observers: `since` is the position
  /// it resumes after, if any, and `resumable` whether the server keeps history to resume from.
  case subscribe(String, since: String?, resumable: Bool)
  /// A caller awaiting a `history` read of `name`: the delivery lines before the reply are its.
  case history(String, limit: Int?, CheckedContinuation<Result<[Delivery], ClientError>, Never>)
  /// The client's own `unsubscribe`, sent when the last local observer left.
  case unsubscribe(String)
  /// A caller awaiting the reply to its `will` (a will, or its withdrawal).
  case willRequest(CheckedContinuation<Result<Void, ClientError>, Never>)
  /// The client's own `will`, registered again on a new connection.
  case will(String)
  /// The client's own `ping` after a silence, to find out whether the server is still there.
  case keepAlive
}
