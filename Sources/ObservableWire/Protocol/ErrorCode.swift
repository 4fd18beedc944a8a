/// The machine-readable codes of the protocol's error replies.
public enum ErrorCode: String, Sendable, CaseIterable {
  /// Not JSON, not an object, wrong or missing fields, or invalid UTF-8.
  case badRequest = "bad_request"
  /// An `op` the server does not know.
  case unknownOp = "unknown_op"
  /// A stream name or pattern that is not tokens of `[A-Za-z0-9_-]` joined by `.`.
  case badName = "bad_name"
  /// A second subscribe to the same name on one connection.
  case alreadySubscribed = "already_subscribed"
  /// An unsubscribe from a name this connection is not subscribed to.
  case notSubscribed = "not_subscribed"
  /// A publish to a built-in or exec stream.
  case readOnly = "read_only"
  /// A line longer than the server's limit.
  case lineTooLong = "line_too_long"
  /// An op before a successful `auth`, or a wrong token.
  case unauthorized = "unauthorized"
  /// An authenticated client asked for something its user may not do; nothing was changed and
  /// the connection stays open.
  case forbidden = "forbidden"
  /// The connection fell too far behind and is being closed.
  case slowConsumer = "slow_consumer"
  /// The server is at its connection limit.
  case tooManyConnections = "too_many_connections"
  /// A request that would pass one of the server's limits (subscriptions per connection,
  /// retained bytes); nothing was changed.
  case limitExceeded = "limit_exceeded"
  /// A request the server understands but does not support, such as a second `compress`.
  case unsupported = "unsupported"
  /// The cluster could not do it in time: JetStream could not store or clear a retained
  /// value (no leader, no NATS connection). Trying again later may succeed.
  case unavailable = "unavailable"
}
