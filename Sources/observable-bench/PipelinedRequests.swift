import Glibc

/// Requests written back to back on one connection, a bounded number of batches ahead of the
/// answers, while other connections' deliveries are read and counted.
///
/// Pipelining measures the server rather than round trips; the bound keeps the replies the
/// server holds for the client small, so nobody is closed as a slow consumer.
struct PipelinedRequests {
  /// What one run saw.
  struct Outcome {
    var seconds: Double
    var errors = 0
    var firstError: String?
    /// Lines read on the receiving connections.
    var deliveries = 0
  }

  /// Requests per written batch.
  var perBatch = 1000
  /// Batches written but not yet fully answered.
  var batchesInFlight = 4

  /// Sends `total` requests on `connection`, `batch(first, count)` making the bytes of requests
  /// `first..<first+count`, until every one is answered and `receivers` have read
  /// `expectedDeliveries` lines; returns the time it took.
  func run(
    on connection: ClientConnection, total: Int, receivers: [ClientConnection] = [],
    expectedDeliveries: Int = 0, deadline: Deadline,
    batch: (_ first: Int, _ count: Int) -> [UInt8]
  ) throws(BenchError) -> Outcome {
    let all = [connection] + receivers
    var descriptors = all.map { pollfd(fd: $0.descriptor, events: 0, revents: 0) }
    var written = 0
    var answered = 0
    var outcome = Outcome(seconds: 0)
    let started = MonotonicTime.now()
    while answered < total || outcome.deliveries < expectedDeliveries {
      try deadline.check(
        "pipelining: \(answered) of \(total) answers, \(outcome.deliveries) of "
          + "\(expectedDeliveries) deliveries")
      if !connection.hasPendingOutput, written < total,
        written - answered <= (batchesInFlight - 1) * perBatch
      {
        let count = min(perBatch, total - written)
        connection.queue(batch(written, count))
        written += count
        try connection.flush()
      }
      for index in all.indices { descriptors[index].events = all[index].pollEvents }
      let ready = poll(&descriptors, nfds_t(descriptors.count), deadline.pollTimeout())
      if ready < 0, errno != EINTR { throw .system(call: "poll", code: errno) }
      guard ready > 0 else { continue }
      for (index, peer) in all.enumerated() {
        let events = descriptors[index].revents
        if events & Int16(POLLOUT) != 0 { try peer.flush() }
        guard events & Int16(POLLIN | POLLHUP | POLLERR) != 0 else { continue }
        if case .closed = try peer.read() { throw .unexpected("the server closed a connection") }
        while let line = peer.nextLine() {
          if index > 0 {
            outcome.deliveries += 1
          } else if line.hasPrefix(LineShape.okTrue) {
            answered += 1
          } else if line.hasPrefix(LineShape.okFalse) {
            answered += 1
            outcome.errors += 1
            if outcome.firstError == nil { outcome.firstError = line.text }
          }
        }
      }
    }
    outcome.seconds = MonotonicTime.seconds(from: started, to: MonotonicTime.now())
    return outcome
  }
}
