import Logging

/// A warning that clients can cause as fast as they like, so that ``RepeatedWarnings`` logs it
/// at a bounded rate; the raw value names it in the line that counts those not logged.
package enum RepeatedWarning: String, Sendable, CaseIterable {
  /// A connection refused at `--max-connections`.
  case connectionRefused = "connection refused"
  /// A client closed for queueing more than `--max-queued-bytes`.
  case slowConsumer = "slow consumer"
  /// A retained value the cluster could not store.
  case retainedNotStored = "retained value not stored"
  /// A wrong token, or a signed token that proves nothing.
  case authenticationFailed = "authentication failed"
  /// A request the user's rules do not allow: routine for a client that tries what it may not,
  /// so it is logged at debug, but a client in a loop must not fill a debug log either.
  case forbidden = "forbidden"
  /// Compressed input that does not inflate.
  case corruptInput = "corrupt compressed input"
  /// A TLS handshake that failed or did not finish in time (plain text on a TLS port, an old
  /// protocol version, a refused certificate).
  case tlsHandshakeFailed = "TLS handshake failed"

  /// The level of its lines, and of the line that counts those not logged.
  package var level: Logger.Level {
    self == .forbidden ? .debug : .warning
  }
}
