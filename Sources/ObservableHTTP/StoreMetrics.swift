import ObservableCounters

/// The store's counters (`--data-dir`) as Prometheus metric families; all 0 without a store.
enum StoreMetrics {
  /// The families for `snapshot`, named with ``ServerMetrics/prefix``.
  static func families(_ snapshot: ServerCounters.Snapshot) -> [MetricFamily] {
    let p = ServerMetrics.prefix
    return [
      .single(
        p + "store_queued_changes", .gauge,
        "Retained values and clears waiting for the store's thread to commit them.",
        snapshot.storeQueued),
      .single(
        p + "store_batches_total", .counter,
        "Transactions the store committed, each holding every change queued before it began.",
        snapshot.storeBatchesTotal),
      .single(
        p + "store_write_errors_total", .counter,
        "Store writes that failed (a full disk, an I/O error, a full queue); retained publishes answer unavailable until the store catches up.",
        snapshot.storeWriteErrorsTotal),
    ]
  }
}
