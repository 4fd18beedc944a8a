import Glibc
import Locking

/// The server's counters, as the `stats` stream reports them.
package final class ServerCounters: Sendable {
  /// A copy of every counter at one moment.
  package struct Snapshot: Sendable {
    package var connections = 0
    package var connectionsTotal = 0
    package var subscriptions = 0
    package var subscribesTotal = 0
    package var disconnectsTotal = 0
    package var publishedTotal = 0
    package var deliveredTotal = 0
    package var droppedTotal = 0
    package var slowConsumersTotal = 0
    package var bytesIn = 0
    package var bytesOut = 0
    package var bytesOutUncompressed = 0
    package var subscriptionLimitTotal = 0
    package var retainedLimitTotal = 0
    package var retainedBytes = 0
    package var deadPeersTotal = 0
    /// Last wills published because a connection ended without withdrawing its will.
    package var willsPublishedTotal = 0
    package var authTimeoutsTotal = 0
    package var authFailuresTotal = 0
    /// Requests refused with `forbidden`: the user's rules do not allow them.
    package var forbiddenTotal = 0
    package var webSocketConnections = 0
    package var webSocketConnectionsTotal = 0
    package var httpRequestsTotal = 0
    /// io_uring submissions of batched sends (one `io_uring_enter` each).
    package var sendBatchesTotal = 0
    /// Sends made through those submissions.
    package var batchedSendsTotal = 0
    /// Connections of TLS listeners open now, those still in their handshake included.
    package var tlsConnections = 0
    /// TLS handshakes completed.
    package var tlsHandshakesTotal = 0
    /// TLS handshakes that failed or timed out, by kind.
    package var tlsHandshakeFailures = TLSHandshakeFailureCounts()
    /// Store changes (`--data-dir`) queued for the store's thread and not yet committed.
    package var storeQueued = 0
    /// Transactions the store committed.
    package var storeBatchesTotal = 0
    /// Store writes that failed (a full disk, an I/O error, a full queue).
    package var storeWriteErrorsTotal = 0
    /// Values the topics' history holds now (`--history`).
    package var historyValues = 0
    /// Bytes they count against `--max-history-bytes`.
    package var historyBytes = 0
    /// Values the history forgot to `--history`, `--history-ttl` or `--max-history-bytes`.
    package var historyEvictedTotal = 0
  }

  /// Inlinable with ``update(_:)`` and ``published(_:receivers:)``: the write path counts every
  /// send, and a call into this module with a closure cost more than the lock itself.
  @usableFromInline let values = Locked(Snapshot())
  private let started = ContinuousClock.now
  /// Reads the history's counts (`history_values`, `history_bytes`, `history_evicted_total`)
  /// when a snapshot is taken. The history keeps them under its own lock; updating them here
  /// on every publish cost a second lock acquisition per publish.
  private let historyCounts = Locked<(@Sendable () -> HistoryCounts)?>(nil)

  /// What the history holds and has forgotten, as ``Snapshot`` reports it.
  package struct HistoryCounts: Sendable {
    package var values: Int
    package var bytes: Int
    package var evictedTotal: Int

    package init(values: Int, bytes: Int, evictedTotal: Int) {
      self.values = values
      self.bytes = bytes
      self.evictedTotal = evictedTotal
    }
  }

  /// Counters all at zero, the uptime counting from now.
  package init() {}

  /// Changes counters under one lock acquisition.
  @inlinable package func update(_ change: (inout Snapshot) -> Void) {
    values.withLock { change(&$0) }
  }

  /// Counts `count` publishes that each reached `receivers` observers.
  @inlinable package func published(_ count: Int, receivers: Int) {
    values.withLock {
      $0.publishedTotal += count
      $0.deliveredTotal += count * receivers
    }
  }

  /// Makes every snapshot take the history's counts from `read`, which must not wait for
  /// this object's lock (it is called without it).
  package func readHistoryCounts(with read: @escaping @Sendable () -> HistoryCounts) {
    historyCounts.withLock { $0 = read }
  }

  /// Every counter now.
  package var snapshot: Snapshot {
    var now = values.withLock { $0 }
    if let read = historyCounts.withLock({ $0 }) {
      let history = read()
      now.historyValues = history.values
      now.historyBytes = history.bytes
      now.historyEvictedTotal = history.evictedTotal
    }
    return now
  }

  /// Whole seconds since the server started.
  package var uptimeSeconds: Int { Int((ContinuousClock.now - started).components.seconds) }

  /// The `stats` value: one JSON object with every counter.
  package func encodedJSON() -> [UInt8] {
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
      ("auth_failures_total", now.authFailuresTotal), ("forbidden_total", now.forbiddenTotal),
      ("websocket_connections", now.webSocketConnections),
      ("websocket_connections_total", now.webSocketConnectionsTotal),
      ("http_requests_total", now.httpRequestsTotal),
      ("send_batches_total", now.sendBatchesTotal),
      ("batched_sends_total", now.batchedSendsTotal),
      ("tls_connections", now.tlsConnections), ("tls_handshakes_total", now.tlsHandshakesTotal),
      ("tls_handshake_failures_total", now.tlsHandshakeFailures.total),
      ("store_queued_changes", now.storeQueued), ("store_batches_total", now.storeBatchesTotal),
      ("store_write_errors_total", now.storeWriteErrorsTotal),
      ("wills_published_total", now.willsPublishedTotal),
      ("history_values", now.historyValues), ("history_bytes", now.historyBytes),
      ("history_evicted_total", now.historyEvictedTotal),
      ("uptime_s", uptimeSeconds),
    ]
    return Array(("{" + fields.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}").utf8)
  }
}
