import ObservableCounters
import ObservableVersion

/// The server's counters as Prometheus metric families, named and explained for `/metrics`.
///
/// The values are the ones the `stats` stream reports, read in one snapshot so the figures of
/// one scrape agree with one another. Names follow Prometheus's conventions: a counter ends in
/// `_total`, a unit is spelled out (`_bytes`, `_seconds`), and the current connections and
/// subscriptions are gauges.
package enum ServerMetrics {
  /// The prefix of every metric name.
  static let prefix = "observable_server_"

  /// The families for `snapshot`, taken when the server had run `uptimeSeconds`.
  static func families(
    _ snapshot: ServerCounters.Snapshot, uptimeSeconds: Int,
    version: String = ReleaseVersion.current
  ) -> [MetricFamily] {
    let p = prefix
    return [
      MetricFamily(
        name: p + "info", help: "The server's version; the value is always 1.", kind: .gauge,
        samples: [MetricFamily.Sample(labels: [("version", version)], value: 1)]),
      .single(
        p + "uptime_seconds", .gauge, "Seconds since the server started.", uptimeSeconds),
      // The gauges of open connections end in `_open`: OpenMetrics names the counter
      // `connections_total` `connections`, which a gauge of that name would clash with.
      .single(
        p + "connections_open", .gauge, "Clients connected now (HTTP and WebSocket included).",
        snapshot.connections),
      .single(
        p + "subscriptions", .gauge, "Subscriptions open now, over all clients.",
        snapshot.subscriptions),
      .single(
        p + "connections_total", .counter, "Clients accepted since the server started.",
        snapshot.connectionsTotal),
      .single(
        p + "disconnects_total", .counter,
        "Subscriptions ended, each disconnect counted once, whatever ended it.",
        snapshot.disconnectsTotal),
      .single(
        p + "subscribes_total", .counter, "Subscribe requests that succeeded.",
        snapshot.subscribesTotal),
      .single(
        p + "published_total", .counter, "Values published to topics.",
        snapshot.publishedTotal),
      .single(
        p + "delivered_total", .counter,
        "Values handed to subscribers (one per publish per receiving subscriber).",
        snapshot.deliveredTotal),
      .single(
        p + "dropped_total", .counter,
        "Values not delivered because the subscriber could not take them (closed or too slow).",
        snapshot.droppedTotal),
      .single(
        p + "slow_consumers_total", .counter,
        "Clients closed because their queued output passed --max-queued-bytes.",
        snapshot.slowConsumersTotal),
      .single(
        p + "received_bytes_total", .counter, "Bytes read from clients, as on the wire.",
        snapshot.bytesIn),
      .single(
        p + "sent_bytes_total", .counter, "Bytes written to clients, as on the wire.",
        snapshot.bytesOut),
      .single(
        p + "sent_uncompressed_bytes_total", .counter,
        "Bytes written to clients before compression; equal to sent bytes without it.",
        snapshot.bytesOutUncompressed),
      .single(
        p + "websocket_connections_open", .gauge,
        "Clients connected over WebSocket now (in connections_open).",
        snapshot.webSocketConnections),
      .single(
        p + "websocket_connections_total", .counter,
        "WebSocket upgrades accepted since the server started.", snapshot.webSocketConnectionsTotal),
      .single(
        p + "http_requests_total", .counter,
        "HTTP request heads answered (pages, metrics, health, upgrades, errors after parsing).",
        snapshot.httpRequestsTotal),
      .single(
        p + "send_batches_total", .counter,
        "io_uring submissions that carried sends to many clients at once (0 without io_uring).",
        snapshot.sendBatchesTotal),
      .single(
        p + "batched_sends_total", .counter,
        "Sends made through those submissions instead of one send(2) each.",
        snapshot.batchedSendsTotal),
      .single(
        p + "dead_peers_total", .counter,
        "Clients dropped because they acknowledged nothing in time (TCP timeouts, unanswered WebSocket pings).",
        snapshot.deadPeersTotal),
      .single(
        p + "wills_published_total", .counter,
        "Last wills published because a connection ended without withdrawing its will.",
        snapshot.willsPublishedTotal),
      .single(
        p + "auth_timeouts_total", .counter, "Clients closed for not authenticating in time.",
        snapshot.authTimeoutsTotal),
      .single(
        p + "auth_failures_total", .counter, "Authentications refused for a wrong token.",
        snapshot.authFailuresTotal),
      .single(
        p + "forbidden_total", .counter,
        "Requests refused with forbidden: not allowed by the user's rules.",
        snapshot.forbiddenTotal),
      .single(
        p + "subscription_limit_total", .counter,
        "Subscribes refused because the connection held --max-subscriptions.",
        snapshot.subscriptionLimitTotal),
      .single(
        p + "retained_limit_total", .counter,
        "Retained publishes refused because they would pass --max-retained-bytes.",
        snapshot.retainedLimitTotal),
      .single(
        p + "retained_bytes", .gauge, "Bytes all retained values take now.",
        snapshot.retainedBytes),
      .single(
        p + "history_values", .gauge, "Values the topics' history holds now.",
        snapshot.historyValues),
      .single(
        p + "history_bytes", .gauge, "Bytes the history counts against --max-history-bytes.",
        snapshot.historyBytes),
      .single(
        p + "history_evicted_total", .counter,
        "Values the history forgot to --history, --history-ttl or --max-history-bytes.",
        snapshot.historyEvictedTotal),
    ] + TLSMetrics.families(snapshot) + StoreMetrics.families(snapshot)
  }

  /// The whole `/metrics` body for `counters` now, in `format`, with `extra` families (the
  /// cluster's) after the server's.
  static func exposition(
    _ counters: ServerCounters, format: MetricsFormat = .prometheus, extra: [MetricFamily] = []
  ) -> String {
    PrometheusText.encode(
      families(counters.snapshot, uptimeSeconds: counters.uptimeSeconds) + extra, format: format)
  }
}
