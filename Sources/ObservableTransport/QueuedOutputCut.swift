/// How one loop brings the server's queued output back under its bound: it closes its
/// connections with the largest queues first, as slow consumers.
///
/// Runs as a task on the loop when the total passes the bound, not on each enqueue: sorting
/// the loop's connections costs O(n log n) once per cut, which frees at least a quarter of the
/// bound, instead of a scan per value queued.
package enum QueuedOutputCut {
  /// Closes the connections of `home` with the most bytes queued, largest first, until the
  /// server's total is at most `lowWater`. Loop thread only.
  static func closeLargest(on home: ConnectionLoop, until lowWater: Int, account: QueuedOutput) {
    guard account.bytes > lowWater else { return }
    let queued = home.connections.all.compactMap { connection in
      let bytes = connection.outbox.queuedBytes
      return bytes > 0 ? (connection, bytes) : nil
    }
    for (connection, _) in queued.sorted(by: { $0.1 > $1.1 }) {
      guard account.bytes > lowWater else { return }
      connection.context.counters.update { $0.slowConsumersTotal += 1 }
      connection.closeAsSlowConsumer()
    }
  }
}
