import Glibc
import Locking

/// The server's counters, as the `stats` stream reports them.
final class ServerCounters: Sendable {
  /// A copy of every counter at one moment.
  struct Snapshot: Sendable {
    var connections = 0
    var connectionsTotal = 0
    var subscriptions = 0
    var subscribesTotal = 0
    var disconnectsTotal = 0
    var publishedTotal = 0
    var deliveredTotal = 0
    var droppedTotal = 0
    var slowConsumersTotal = 0
    var bytesIn = 0
    var bytesOut = 0
    var bytesOutUncompressed = 0
    var subscriptionLimitTotal = 0
    var retainedLimitTotal = 0
    var retainedBytes = 0
    var deadPeersTotal = 0
    var authTimeoutsTotal = 0
    var authFailuresTotal = 0
    var webSocketConnections = 0
    var webSocketConnectionsTotal = 0
    var httpRequestsTotal = 0
    /// io_uring submissions of batched sends (one `io_uring_enter` each).
    var sendBatchesTotal = 0
    /// Sends made through those submissions.
    var batchedSendsTotal = 0
  }

  private let values = Locked(Snapshot())
  private let started = ContinuousClock.now

  /// Changes counters under one lock acquisition.
  func update(_ change: (inout Snapshot) -> Void) {
    values.withLock { change(&$0) }
  }

  /// Counts `count` publishes that each reached `receivers` observers.
  func published(_ count: Int, receivers: Int) {
    values.withLock {
      $0.publishedTotal += count
      $0.deliveredTotal += count * receivers
    }
  }

  /// Every counter now.
  var snapshot: Snapshot { values.withLock { $0 } }

  /// Whole seconds since the server started.
  var uptimeSeconds: Int { Int((ContinuousClock.now - started).components.seconds) }

  /// The `stats` value: one JSON object with every counter.
  func encodedJSON() -> [UInt8] {
    let now = snapshot
    let fields: [(String, Int)] = [
      ("connections", now.connections), ("connections_total", now.connectionsTotal),
      ("subscriptions", now.subscriptions), ("subscribes_total", now.subscribesTotal),
      ("disconnects_total", now.disconnectsTotal), ("published_total", now.publishedTotal),
      ("delivered_total", now.deliveredTotal), ("dropped_total", now.droppedTotal),
      ("slow_consumers_total", now.slowConsumersTotal), ("bytes_in", now.bytesIn),
      ("bytes_out", now.bytesOut), ("bytes_out_uncompressed", now.bytesOutUncompressed),
      ("subscription_limit_total", now.subscriptionLimitTotal),
      ("retained_limit_total", now.retainedLimitTotal), ("retained_bytes", now.retainedBytes),
      ("dead_peers_total", now.deadPeersTotal), ("auth_timeouts_total", now.authTimeoutsTotal),
      ("auth_failures_total", now.authFailuresTotal),
      ("websocket_connections", now.webSocketConnections),
      ("websocket_connections_total", now.webSocketConnectionsTotal),
      ("http_requests_total", now.httpRequestsTotal),
      ("send_batches_total", now.sendBatchesTotal),
      ("batched_sends_total", now.batchedSendsTotal),
      ("uptime_s", uptimeSeconds),
    ]
    return Array(("{" + fields.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}").utf8)
  }
}
