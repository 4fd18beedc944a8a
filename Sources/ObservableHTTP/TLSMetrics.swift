import ObservableCounters

/// The TLS listeners' counters as Prometheus metric families: connections, handshakes, and
/// failed handshakes labelled by kind, every kind present (at 0 too) so that a rate over a
/// kind exists before its first failure.
enum TLSMetrics {
  /// The families for `snapshot`, named with ``ServerMetrics/prefix``.
  static func families(_ snapshot: ServerCounters.Snapshot) -> [MetricFamily] {
    let p = ServerMetrics.prefix
    let failures = TLSHandshakeFailureCounts.Kind.allCases.map { kind in
      MetricFamily.Sample(
        labels: [("kind", kind.rawValue)],
        value: Double(snapshot.tlsHandshakeFailures[kind]))
    }
    return [
      .single(
        p + "tls_connections_open", .gauge,
        "Clients connected through TLS listeners now, handshaking ones included (in connections_open).",
        snapshot.tlsConnections),
      .single(
        p + "tls_handshakes_total", .counter, "TLS handshakes completed.",
        snapshot.tlsHandshakesTotal),
      MetricFamily(
        name: p + "tls_handshake_failures_total",
        help:
          "TLS handshakes that failed, by kind: not_tls, protocol_version, client_certificate, peer_alert, truncated, timeout, protocol_error.",
        kind: .counter, samples: failures),
    ]
  }
}
