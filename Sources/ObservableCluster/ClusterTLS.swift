import TLS

/// The cluster link's TLS: the context, made once from `--cluster-ca-file`, `--cluster-cert`
/// and `--cluster-key`, and the session of the current connection once its server asked for
/// TLS. Loop only, like the connection that holds it.
struct ClusterTLS {
  /// The client context, made on the first connection that needs it.
  var context: TLSContext?
  /// The current connection's session; `nil` on a plain connection and between connections.
  var session: TLSSession?
  /// The session's plaintext, gathered from the NATS session before it is encrypted in one
  /// call (one record per flush, not one per command).
  var plaintext: [UInt8] = []

  /// The context for `configuration` (the system's authorities when `nil`), made once.
  mutating func context(for configuration: TLSClientConfiguration?) throws(TLSConfigurationError)
    -> TLSContext
  {
    if let context { return context }
    let made = try TLSContext(client: configuration ?? TLSClientConfiguration())
    context = made
    return made
  }
}
