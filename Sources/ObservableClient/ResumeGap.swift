/// A subscription that resumed after a reconnect, or from a given `since`, without every value
/// it missed: the values published meanwhile that the server no longer holds are lost. A
/// clustered server also reports one, with ``Cause/historyEvicted``, for a subscription whose
/// values JetStream dropped before they reached it while it was connected (`since` is then
/// the subscription's last position).
///
/// ``ObservableClient/gaps`` reports one each time it happens, before the values the server
/// still held for the subscription; they and the live values then follow as usual.
public struct ResumeGap: Sendable, Equatable {
  /// Why the values could not all be recovered.
  public enum Cause: Sendable, Equatable {
    /// The server's history no longer reaches back to the position (its bounds evicted the
    /// values after it), or the position is from another run of the server (a restart).
    case historyEvicted
    /// The server keeps no history (it runs without `--history N`), so nothing was resumed.
    case noHistory
  }

  /// The name or pattern subscribed to, as given to ``ObservableClient/stream(_:since:)``.
  public let subscription: String
  /// The position the subscription asked to resume after.
  public let since: String
  /// Why values were lost.
  public let cause: Cause

  /// Creates a gap; the client makes these from the server's replies.
  public init(subscription: String, since: String, cause: Cause) {
    self.subscription = subscription
    self.since = since
    self.cause = cause
  }
}
