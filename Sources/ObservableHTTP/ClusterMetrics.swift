import ObservableCluster

/// The cluster link's state as Prometheus metric families, appended to `/metrics` when the
/// server runs with `--cluster`; the same figures as the `cluster` object of `stats`.
package enum ClusterMetrics {
  /// The families for `link` now.
  static func families(_ link: ClusterLink) -> [MetricFamily] {
    let status = link.status()
    let p = ServerMetrics.prefix + "cluster_"
    return [
      .single(
        p + "connected", .gauge, "1 while the NATS connection is up, else 0.",
        status.connected ? 1 : 0),
      .single(
        p + "subscriptions", .gauge, "NATS subscriptions held for local interest.",
        status.subscriptions),
      .single(
        p + "values_in_total", .counter, "Values from other nodes delivered here.",
        status.counters.valuesIn),
      .single(
        p + "values_out_total", .counter, "Values sent to other nodes.",
        status.counters.valuesOut),
      .single(
        p + "values_dropped_total", .counter,
        "Values not sent to other nodes: no NATS connection, a slow one, or too large.",
        status.counters.valuesDropped),
      .single(
        p + "values_rejected_total", .counter,
        "Messages from NATS that were not valid lines for their subject.",
        status.counters.valuesRejected),
      .single(
        p + "retained_stored_total", .counter, "Retained values JetStream acknowledged.",
        status.counters.retainedStored),
      .single(
        p + "retained_failed_total", .counter, "Retained publishes answered unavailable.",
        status.counters.retainedFailed),
      .single(
        p + "reconnects_total", .counter, "NATS connections made after the first.",
        status.reconnects),
    ]
  }
}
