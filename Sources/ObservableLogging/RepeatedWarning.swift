/// A warning that clients can cause as fast as they like, so that ``RepeatedWarnings`` logs it
/// at a bounded rate; the raw value names it in the line that counts those not logged.
package enum RepeatedWarning: String, Sendable, CaseIterable {
  /// A connection refused at `--max-connections`.
  case connectionRefused = "connection refused"
  /// A client closed for queueing more than `--max-queued-bytes`.
  case slowConsumer = "slow consumer"
  /// A retained value the cluster could not store.
  case retainedNotStored = "retained value not stored"
  /// A wrong token.
  case authenticationFailed = "authentication failed"
  /// Compressed input that does not inflate.
  case corruptInput = "corrupt compressed input"
  /// A TLS handshake that failed or did not finish in time (plain text on a TLS port, an old
  /// protocol version, a refused certificate).
  case tlsHandshakeFailed = "TLS handshake failed"
}
