/// What a session has done since it was made, across connections, for `stats`.
public struct NATSSessionCounters: Sendable, Equatable {
  /// Messages delivered for the caller's subscriptions, replies excluded.
  public var messagesReceived = 0
  /// Messages published, requests included.
  public var messagesPublished = 0
  /// Handshakes completed: one more than the reconnections once connected.
  public var connections = 0
  /// Connections declared dead by missing PONGs or a handshake that did not finish.
  public var deadConnections = 0

  /// Counters at zero.
  public init() {}
}
